/**
 * The absolute session lifetime (`session.absoluteMaxAge`, OWASP ASVS 5.0 7.3.2): a session ends
 * that many seconds after its sign-in, whatever renews it in between. Both strategies ask here when
 * a session started and when it ends; each caps what it writes (a token's `exp` and cookie, a
 * stored session's `expires`) at that end and refuses a session past it on every read, so a token
 * or row written before the option was on cannot outlive it either.
 *
 * Where the sign-in time comes from: the JWT claim `sessionStart`, the stored session's `createdAt`
 * (both set at sign-in, carried over by re-issue and step-up). A session from before either was
 * recorded counts from its `auth_time` when it has one (the last time its user authenticated: never
 * before the sign-in, so never longer than the real lifetime), else from the first time it is read
 * with the option on (recorded then): no one is signed out by turning the option on, and every
 * session ends at most `absoluteMaxAge` later. A recorded time of another shape, or ahead of the
 * clock by more than instances disagree, was not written by authlib and ends the session.
 */
import type { ResolvedConfig } from "../types/resolved-config.js"

/** Seconds a recorded sign-in time may lie ahead of this instance's clock (another instance's clock). */
export const CLOCK_SKEW = 300

/** Seconds since the epoch, as `iat`, `exp` and `auth_time` count: the one clock of sessions and sign-ins. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

/** Whether `value` is a sign-in time authlib could have recorded by `now` (seconds). */
export function isSessionStart(value: unknown, now: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 && value <= now + CLOCK_SKEW
}

/** The second a session that started at `start` ends under `config`, or undefined when the option is off. */
export function sessionEnd(config: ResolvedConfig, start: number): number | undefined {
  const cap = config.session.absoluteMaxAge
  return cap === undefined ? undefined : start + cap
}

/** `seconds` of life from `now`, cut at `end` (never below 0); `seconds` itself without an end. */
export function cappedLife(seconds: number, now: number, end: number | undefined): number {
  return end === undefined ? seconds : Math.max(0, Math.min(seconds, end - now))
}
