/**
 * Where routes and flows count attempts. Every check counts BEFORE the work it guards (an attempt
 * over the limit never reaches `authorize` or the mailer), so N concurrent attempts against a limit
 * of L let exactly L through, on every instance that shares the store. A refusal is a `RateLimited`
 * error (429 with `Retry-After`); it never depends on whether an account exists.
 */
import { RateLimited } from "../errors.js"
import type { AuthRequest, Context } from "../http/types.js"
import { logError, warnOnce } from "../logger.js"
import { clientKeyOf } from "./client-address.js"
import type { RateLimitGroup, ResolvedRateLimit, ResolvedRule } from "./options.js"
import type { Awaitable } from "@authlib/jwt"
import type { RateLimitHit } from "./store.js"

const isThenable = <T>(value: Awaitable<T>): value is PromiseLike<T> => typeof (value as { then?: unknown } | null)?.then === "function"

/** Longest identifier kept in a key: longer ones share the counter of their first characters. */
const MAX_IDENTIFIER_LENGTH = 256


/** The identifier as counted: NFKC, trimmed, lower-cased, so look-alike spellings share a counter. */
export function normalizeIdentifier(value: string): string {
  // Printable ASCII is its own NFKC form: skip the Unicode tables for the common case.
  const folded = /^[\x20-\x7e]*$/.test(value) ? value : value.normalize("NFKC")
  return folded.trim().toLowerCase().slice(0, MAX_IDENTIFIER_LENGTH)
}

/** The client's key, or undefined (then per-client limits cannot apply: said once in the log). */
export function clientOf(req: AuthRequest, ctx: Context): string | undefined {
  const limits = ctx.config.rateLimit!
  const key = clientKeyOf(req.clientAddress, req.headers, limits.trust)
  if (key === undefined) {
    warnOnce(
      ctx.config.logger,
      "rate-limit-client-unknown",
      "per-client rate limits are skipped for requests without a client address: pass { clientAddress } to Auth(), or use @authlib/core/node or @authlib/qwik, which pass the peer address",
    )
  }
  return key
}

/** Throws `RateLimited` when `hit` is over `rule` (a read, cost 0, asks whether one more would fit). */
function judge(ctx: Context, group: RateLimitGroup, rule: ResolvedRule, hit: RateLimitHit, cost: number): void {
  const within = cost === 0 ? hit.count < rule.limit : hit.count <= rule.limit
  if (!within) refuse(ctx, group, rule, hit.resetInMs)
}

/**
 * Counts `cost` (0 reads) against the rules of `group` for `value`, shortest window first, and
 * throws `RateLimited` at the first count over its limit. What comes after a refusal is not
 * counted: a user who clicks "resend" during the cooldown does not use up the hourly allowance, and
 * hammering while refused does not lengthen the wait. Each counted rule is still exact under
 * concurrency. A store failure throws `RateLimited` / `STORE_UNAVAILABLE` unless limits fail open.
 *
 * Synchronous while the store answers values (the memory store): a Promise only once a store
 * answers one. On the sign-in path every `await` and allocation shows against the 5% budget of the
 * limits (measured in `pnpm bench core`), hence one check per call and index loops.
 */
function count(ctx: Context, group: RateLimitGroup, value: string, cost: number, from = 0): void | Promise<void> {
  const limits = ctx.config.rateLimit!
  const rules = limits.rules[group]
  for (let r = from; r < rules.length; r++) {
    const rule = rules[r]!
    let answer: Awaitable<RateLimitHit>
    try {
      answer = limits.store.hit(rule.prefix + value, rule.windowMs, cost)
    } catch (err) {
      return storeFailed(ctx, limits, err)
    }
    if (isThenable(answer)) return settle(ctx, group, value, cost, r, answer)
    judge(ctx, group, rule, answer, cost)
  }
}

/** The rest of `count` once the store answered a Promise for rule `r`. */
async function settle(ctx: Context, group: RateLimitGroup, value: string, cost: number, r: number, answer: PromiseLike<RateLimitHit>): Promise<void> {
  let hit: RateLimitHit
  try {
    hit = await answer
  } catch (err) {
    return storeFailed(ctx, ctx.config.rateLimit!, err)
  }
  judge(ctx, group, ctx.config.rateLimit!.rules[group][r]!, hit, cost)
  await count(ctx, group, value, cost, r + 1)
}

function refuse(ctx: Context, group: RateLimitGroup, rule: ResolvedRule, waitMs: number): never {
  const retryAfter = Math.ceil(waitMs / 1000)
  // The group and rule only: never the identifier or the address.
  ctx.config.logger.warn("rate-limited", `${group}: more than ${rule.limit} per ${rule.windowMs / 1000} s; retry after ${retryAfter} s`)
  throw new RateLimited("Too many attempts", { code: "LIMIT_REACHED", retryAfter, cause: { group } })
}

function storeFailed(ctx: Context, limits: ResolvedRateLimit, err: unknown): void {
  logError(ctx.config.logger, err)
  if (limits.failOpen) return
  throw new RateLimited("The rate-limit store is unavailable", { code: "STORE_UNAVAILABLE", retryAfter: 30, cause: { err: err instanceof Error ? err : new Error(String(err)) } })
}

/** Counts one request of the client against `group` (a per-client group). */
export async function limitClient(req: AuthRequest, ctx: Context, group: RateLimitGroup): Promise<void> {
  const limits = ctx.config.rateLimit
  if (!limits || limits.rules[group].length === 0) return
  const client = clientOf(req, ctx)
  if (client !== undefined) await count(ctx, group, client, 1)
}

/** What a credentials sign-in reports back once `authorize` has answered. */
export interface CredentialsAttempt {
  /** `authorize` refused: the client's failures grow. */
  failed(): Promise<void>
  /** Signed in: the identifier's attempts are forgotten (synchronous with a synchronous store). */
  succeeded(): void | Promise<void>
}

/** One attempt's counters (a class: no closures allocated per sign-in). */
class Attempt implements CredentialsAttempt {
  constructor(
    readonly ctx: Context,
    /** The client's key, when per-client limits apply. */
    readonly client: string | undefined,
    /** The normalised identifier, when per-identifier limits apply. */
    readonly id: string | undefined,
  ) {}

  async failed(): Promise<void> {
    if (this.client === undefined) return
    try {
      await count(this.ctx, "credentials.perClient", this.client, 1)
    } catch (err) {
      // The attempt has been answered already; a limit reached here applies to the next one.
      if (!(err instanceof RateLimited)) logError(this.ctx.config.logger, err)
    }
  }

  succeeded(): void | Promise<void> {
    if (this.id !== undefined) return forget(this.ctx, this.ctx.config.rateLimit!, this.id)
  }
}

const NOTHING: CredentialsAttempt = { failed: async () => {}, succeeded: () => {} }

/** Forgets the identifier's counters; a store failure is logged (the sign-in has succeeded). */
function forget(ctx: Context, limits: ResolvedRateLimit, id: string): void | Promise<void> {
  const rules = limits.rules["credentials.perIdentifier"]
  for (let i = 0; i < rules.length; i++) {
    let done: Awaitable<void>
    try {
      done = limits.store.reset(rules[i]!.prefix + id)
    } catch (err) {
      return logError(ctx.config.logger, err)
    }
    if (isThenable(done)) return forgetAsync(ctx, limits, id, i, done)
  }
}

async function forgetAsync(ctx: Context, limits: ResolvedRateLimit, id: string, from: number, first: PromiseLike<void>): Promise<void> {
  const rules = limits.rules["credentials.perIdentifier"]
  try {
    await first
    for (let i = from + 1; i < rules.length; i++) await limits.store.reset(rules[i]!.prefix + id)
  } catch (err) {
    logError(ctx.config.logger, err)
  }
}

/**
 * Before `authorize`: checks (without counting) the client's failures, then counts the attempt
 * against the identifier's rules. Throws `RateLimited` when either is over. Synchronous with a
 * synchronous store (see `count`).
 */
export function credentialsAttempt(req: AuthRequest, ctx: Context, identifier: string | undefined): CredentialsAttempt | Promise<CredentialsAttempt> {
  const limits = ctx.config.rateLimit
  if (!limits) return NOTHING
  const id = identifier === undefined || limits.rules["credentials.perIdentifier"].length === 0 ? undefined : normalizeIdentifier(identifier) || undefined
  const client = limits.rules["credentials.perClient"].length > 0 ? clientOf(req, ctx) : undefined
  const attempt = new Attempt(ctx, client, id)
  const read = client !== undefined ? count(ctx, "credentials.perClient", client, 0) : undefined
  if (isThenable(read)) return read.then(() => countIdentifier(ctx, attempt))
  return countIdentifier(ctx, attempt)
}

function countIdentifier(ctx: Context, attempt: Attempt): CredentialsAttempt | Promise<CredentialsAttempt> {
  if (attempt.id === undefined) return attempt
  const done = count(ctx, "credentials.perIdentifier", attempt.id, 1)
  return isThenable(done) ? done.then(() => attempt) : attempt
}

/** Before an e-mail sign-in mail: counts it against the address's rules, then the client's. */
export async function emailAttempt(req: AuthRequest, ctx: Context, address: string): Promise<void> {
  const limits = ctx.config.rateLimit
  if (!limits) return
  if (limits.rules["email.perAddress"].length > 0) await count(ctx, "email.perAddress", normalizeIdentifier(address), 1)
  const client = limits.rules["email.perClient"].length > 0 ? clientOf(req, ctx) : undefined
  if (client !== undefined) await count(ctx, "email.perClient", client, 1)
}
