/**
 * Where routes and flows count attempts. Every check counts BEFORE the work it guards (an attempt
 * over the limit never reaches `authorize` or the mailer), so N concurrent attempts against a limit
 * of L let exactly L through, on every instance that shares the store. A refusal is a `RateLimited`
 * error (429 with `Retry-After`); it never depends on whether an account exists. Which counters a
 * credentials attempt uses (networks, device marks) is credentials-limit.ts's business.
 */
import { RateLimited } from "../errors/errors.js"
import type { AuthRequest, Context } from "../types/http.js"
import { logError, warnOnce } from "../errors/logger.js"
import { clientKeyOf } from "./client-address.js"
import type { RateLimitGroup, ResolvedRateLimit, ResolvedRule } from "./options.js"
import type { Awaitable } from "@authlib/jwt"
import type { RateLimitHit, RateLimitStep } from "../types/rate-limit-store.js"
import { hitEach, isOverLimit, isThenable } from "./steps.js"
import { countStepsInMemory } from "./memory-store.js"

export { isThenable }

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

/** A step of `countEach`: a counter and the group whose rule it is (named in a refusal). */
export interface CountedStep extends RateLimitStep {
  readonly group: RateLimitGroup
}

/**
 * Counts `steps` in one store call (`RateLimitStore.hitEach`, or `hit` per step) and throws
 * `RateLimited` for the first over its limit, after which nothing was counted (as `count`). A store
 * failure is handled as in `count`. Synchronous while the store answers values.
 */
export function countEach(ctx: Context, steps: readonly CountedStep[]): void | Promise<void> {
  const limits = ctx.config.rateLimit!
  let answer: Awaitable<readonly RateLimitHit[]> | undefined
  let counted: ReturnType<typeof countStepsInMemory>
  try {
    // The default store counts without an answer per step (the same counts as its `hitEach`).
    counted = countStepsInMemory(limits.store, steps)
    if (counted === false) answer = hitEach(limits.store, steps)
  } catch (err) {
    return storeFailed(ctx, limits, err)
  }
  if (answer === undefined) {
    if (counted) refuse(ctx, steps[counted.refused]!.group, steps[counted.refused]!, counted.waitMs)
    return
  }
  if (!isThenable(answer)) return judgeEach(ctx, steps, answer)
  return Promise.resolve(answer).then(
    (hits) => judgeEach(ctx, steps, hits),
    (err: unknown) => storeFailed(ctx, limits, err),
  )
}

function judgeEach(ctx: Context, steps: readonly CountedStep[], hits: readonly RateLimitHit[]): void {
  for (let i = 0; i < hits.length && i < steps.length; i++) {
    const step = steps[i]!
    if (isOverLimit(step, hits[i]!)) refuse(ctx, step.group, step, hits[i]!.resetInMs)
  }
}

/**
 * Counts `cost` (0 reads) against the rules of `group` for `value`, shortest window first, and
 * throws `RateLimited` at the first count over its limit. `rules` are the group's unless given (the
 * per-identifier totals count under their group's name). What comes after a refusal is not
 * counted: a user who clicks "resend" during the cooldown does not use up the hourly allowance, and
 * hammering while refused does not lengthen the wait. Each counted rule is still exact under
 * concurrency. A store failure throws `RateLimited` / `STORE_UNAVAILABLE` unless limits fail open.
 *
 * Synchronous while the store answers values (the memory store): a Promise only once a store
 * answers one. On the sign-in path every `await` and allocation shows against the 5% budget of the
 * limits (measured in `pnpm bench core`), hence one check per call and index loops.
 */
export function count(ctx: Context, group: RateLimitGroup, value: string, cost: number, rules: readonly ResolvedRule[] = ctx.config.rateLimit!.rules[group], from = 0): void | Promise<void> {
  const limits = ctx.config.rateLimit!
  for (let r = from; r < rules.length; r++) {
    const rule = rules[r]!
    let answer: Awaitable<RateLimitHit>
    try {
      answer = limits.store.hit(rule.prefix + value, rule.windowMs, cost)
    } catch (err) {
      return storeFailed(ctx, limits, err)
    }
    if (isThenable(answer)) return settle(ctx, group, value, cost, rules, r, answer)
    judge(ctx, group, rule, answer, cost)
  }
}

/** The rest of `count` once the store answered a Promise for rule `r`. */
async function settle(ctx: Context, group: RateLimitGroup, value: string, cost: number, rules: readonly ResolvedRule[], r: number, answer: PromiseLike<RateLimitHit>): Promise<void> {
  let hit: RateLimitHit
  try {
    hit = await answer
  } catch (err) {
    return storeFailed(ctx, ctx.config.rateLimit!, err)
  }
  judge(ctx, group, rules[r]!, hit, cost)
  await count(ctx, group, value, cost, rules, r + 1)
}

function refuse(ctx: Context, group: RateLimitGroup, rule: Pick<ResolvedRule, "limit" | "windowMs">, waitMs: number): never {
  const retryAfter = Math.ceil(waitMs / 1000)
  // The group and rule only: never the identifier or the address.
  ctx.config.logger.warn("rate-limited", `${group}: more than ${rule.limit} per ${rule.windowMs / 1000} s; retry after ${retryAfter} s`)
  throw new RateLimited("Too many attempts", { code: "LIMIT_REACHED", retryAfter, cause: { group } })
}

export function storeFailed(ctx: Context, limits: ResolvedRateLimit, err: unknown): void {
  logError(ctx.config.logger, err)
  if (limits.failOpen) return
  throw new RateLimited("The rate-limit store is unavailable", { code: "STORE_UNAVAILABLE", retryAfter: 30, cause: { err: err instanceof Error ? err : new Error(String(err)) } })
}

/**
 * Forgets the counts of `value` in every rule of `group` (after a success that proves the one
 * counted: a right code). A store that fails here is logged, never fatal: the counts expire.
 */
export async function forgetCounts(ctx: Context, group: RateLimitGroup, value: string): Promise<void> {
  const limits = ctx.config.rateLimit
  if (!limits) return
  for (const rule of limits.rules[group]) {
    try {
      await limits.store.reset(rule.prefix + value)
    } catch (err) {
      logError(ctx.config.logger, err)
    }
  }
}

/** Counts one request of the client against `group` (a per-client group). */
export async function limitClient(req: AuthRequest, ctx: Context, group: RateLimitGroup): Promise<void> {
  const limits = ctx.config.rateLimit
  if (!limits || limits.rules[group].length === 0) return
  const client = clientOf(req, ctx)
  if (client !== undefined) await count(ctx, group, client, 1)
}
