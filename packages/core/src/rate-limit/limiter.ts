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

/** One counter to hit: a group's rules applied to one value (a client or an identifier). */
interface Check {
  readonly group: RateLimitGroup
  readonly value: string
}

/** The identifier as counted: NFKC, trimmed, lower-cased, so look-alike spellings share a counter. */
export function normalizeIdentifier(value: string): string {
  return value.normalize("NFKC").trim().toLowerCase().slice(0, MAX_IDENTIFIER_LENGTH)
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

/**
 * Counts `cost` (0 reads) against the rules of each check in turn, shortest window first, and throws
 * `RateLimited` at the first count over its limit. What comes after a refusal is not counted: a
 * user who clicks "resend" during the cooldown does not use up the hourly allowance, and hammering
 * while refused does not lengthen the wait. Each counted rule is still exact under concurrency. A
 * store failure throws `RateLimited` / `STORE_UNAVAILABLE` unless limits fail open.
 */
async function count(ctx: Context, checks: readonly Check[], cost: number): Promise<void> {
  const limits = ctx.config.rateLimit!
  for (const check of checks) {
    for (const rule of limits.rules[check.group]) {
      let hit: RateLimitHit
      try {
        const answer = limits.store.hit(rule.prefix + check.value, rule.windowMs, cost)
        // A memory store answers a value: no extra turn of the event loop for the common case.
        hit = isThenable(answer) ? await answer : answer
      } catch (err) {
        storeFailed(ctx, limits, err)
        return
      }
      // A read (cost 0) asks whether one more attempt would still be within the limit.
      const within = cost === 0 ? hit.count < rule.limit : hit.count <= rule.limit
      if (!within) refuse(ctx, check.group, rule, hit.resetInMs)
    }
  }
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
  if (client !== undefined) await count(ctx, [{ group, value: client }], 1)
}

/** What a credentials sign-in reports back once `authorize` has answered. */
export interface CredentialsAttempt {
  /** `authorize` refused: the client's failures grow. */
  failed(): Promise<void>
  /** Signed in: the identifier's attempts are forgotten. */
  succeeded(): Promise<void>
}

const NOTHING: CredentialsAttempt = { failed: async () => {}, succeeded: async () => {} }

/**
 * Before `authorize`: counts the attempt against the identifier's rules and checks (without
 * counting) the client's failures. Throws `RateLimited` when either is over.
 */
export async function credentialsAttempt(req: AuthRequest, ctx: Context, identifier: string | undefined): Promise<CredentialsAttempt> {
  const limits = ctx.config.rateLimit
  if (!limits) return NOTHING
  const id = identifier === undefined ? undefined : normalizeIdentifier(identifier)
  const byId = id !== undefined && id !== "" && limits.rules["credentials.perIdentifier"].length > 0
  const client = limits.rules["credentials.perClient"].length > 0 ? clientOf(req, ctx) : undefined
  if (client !== undefined) await count(ctx, [{ group: "credentials.perClient", value: client }], 0)
  if (byId) await count(ctx, [{ group: "credentials.perIdentifier", value: id }], 1)
  return {
    async failed() {
      if (client === undefined) return
      await count(ctx, [{ group: "credentials.perClient", value: client }], 1).catch((err: unknown) => {
        // The attempt has been answered already; a limit reached here applies to the next one.
        if (!(err instanceof RateLimited)) logError(ctx.config.logger, err)
      })
    },
    async succeeded() {
      if (!byId) return
      try {
        for (const rule of limits.rules["credentials.perIdentifier"]) {
          const done = limits.store.reset(rule.prefix + id)
          if (isThenable(done)) await done
        }
      } catch (err) {
        logError(ctx.config.logger, err)
      }
    },
  }
}

/** Before an e-mail sign-in mail: counts it against the address's and the client's rules. */
export async function emailAttempt(req: AuthRequest, ctx: Context, address: string): Promise<void> {
  const limits = ctx.config.rateLimit
  if (!limits) return
  const checks: Check[] = []
  if (limits.rules["email.perAddress"].length > 0) checks.push({ group: "email.perAddress", value: normalizeIdentifier(address) })
  const client = limits.rules["email.perClient"].length > 0 ? clientOf(req, ctx) : undefined
  if (client !== undefined) checks.push({ group: "email.perClient", value: client })
  if (checks.length > 0) await count(ctx, checks, 1)
}
