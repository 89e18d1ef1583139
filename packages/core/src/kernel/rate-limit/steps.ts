/**
 * Several counters in one store call: `RateLimitStore.hitEach` where the store has it (one round
 * trip for a credentials attempt's client, identifier and total counters), else `hit` per step
 * with the same stop-at-the-first-over rule. Synchronous while the store answers values.
 */
import type { Awaitable } from "@authlib/jwt"
import type { RateLimitHit, RateLimitStep, RateLimitStore } from "../types/rate-limit-store.js"

export const isThenable = <T>(value: Awaitable<T>): value is PromiseLike<T> => typeof (value as { then?: unknown } | null)?.then === "function"

/** Whether `hit` is over the limit of `step` (see `RateLimitStep.limit`). */
export function isOverLimit(step: RateLimitStep, hit: RateLimitHit): boolean {
  return step.cost === 0 ? hit.count >= step.limit : hit.count > step.limit
}

/** Counts `steps` in order and stops after the first over its limit (`RateLimitStore.hitEach`'s contract). */
export function hitEach(store: RateLimitStore, steps: readonly RateLimitStep[]): Awaitable<readonly RateLimitHit[]> {
  if (store.hitEach) return store.hitEach(steps)
  const hits: RateLimitHit[] = []
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!
    const answer = store.hit(step.key, step.windowMs, step.cost)
    if (isThenable(answer)) return hitRest(store, steps, hits, i, answer)
    hits.push(answer)
    if (isOverLimit(step, answer)) break
  }
  return hits
}

async function hitRest(store: RateLimitStore, steps: readonly RateLimitStep[], hits: RateLimitHit[], from: number, first: PromiseLike<RateLimitHit>): Promise<RateLimitHit[]> {
  let answer = await first
  for (let i = from; ; ) {
    hits.push(answer)
    if (isOverLimit(steps[i]!, answer) || ++i >= steps.length) return hits
    answer = await store.hit(steps[i]!.key, steps[i]!.windowMs, steps[i]!.cost)
  }
}

/** Forgets every key of `keys` (`RateLimitStore.resetEach`, else `reset` per key, in order). */
export function resetEach(store: RateLimitStore, keys: readonly string[]): Awaitable<void> {
  if (store.resetEach) return store.resetEach(keys)
  for (let i = 0; i < keys.length; i++) {
    const done = store.reset(keys[i]!)
    if (isThenable(done)) return resetRest(store, keys, i, done)
  }
}

async function resetRest(store: RateLimitStore, keys: readonly string[], from: number, first: PromiseLike<void>): Promise<void> {
  await first
  for (let i = from + 1; i < keys.length; i++) await store.reset(keys[i]!)
}
