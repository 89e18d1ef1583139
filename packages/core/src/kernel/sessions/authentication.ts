/**
 * A session's record of how and when its user authenticated, as both strategies keep it: JWT
 * claims `auth_time` and `amr` (their registered names, RFC 7519 registry / OpenID Connect), and
 * the `authTime` and `amr` metadata of a stored session. Read back defensively: a value of another
 * shape (an old token, a custom `jwt.decode`, a row written by other tools) reads as "unknown",
 * which no freshness check accepts. A JWT also records when its session started (claim
 * `sessionStart`, see `lifetime.ts`), which only sign-in sets.
 */
import type { JWT } from "@authlib/jwt"
import type { Authentication } from "../types/sign-in.js"

/** The registered JWT claim names. */
export const AUTH_TIME_CLAIM = "auth_time"
export const AMR_CLAIM = "amr"
/**
 * When the session started (seconds since the epoch): set at sign-in, carried over unchanged by
 * every re-issue (step-up included). Not `iat` (each re-issue moves it) nor `auth_time` (step-up
 * moves it). No registered claim says this; the name is ours, like `sessionEpoch`.
 */
export const SESSION_START_CLAIM = "sessionStart"

/** What a principal says about its authentication. */
export interface AuthenticationFacts {
  authTime: number | null
  amr: readonly string[]
}

const MAX_AMR = 16

/** `authTime` and `amr` from stored or decoded values; anything malformed reads as unknown. */
export function authenticationFacts(authTime: unknown, amr: unknown): AuthenticationFacts {
  const time = typeof authTime === "number" && Number.isSafeInteger(authTime) && authTime > 0 ? authTime : null
  const methods = Array.isArray(amr) && amr.length <= MAX_AMR && amr.every((m) => typeof m === "string" && m.length <= 32) ? (amr as string[]) : []
  return { authTime: time, amr: Object.freeze([...methods]) }
}

/** The facts a token's claims carry. */
export function tokenAuthentication(token: JWT): AuthenticationFacts {
  return authenticationFacts(token[AUTH_TIME_CLAIM], token[AMR_CLAIM])
}

const OWN_CLAIMS = new Set<string>([AUTH_TIME_CLAIM, AMR_CLAIM, SESSION_START_CLAIM])

/**
 * `token`'s own enumerable properties but ours, as an object rest would copy them (string keys in
 * order, a `__proto__` key defined rather than assigned, then symbols). Written as a loop: the rest
 * form with computed keys takes V8's slow path, about 2 us a call, and sign-in makes two calls.
 */
function otherClaims(token: JWT): JWT {
  const out: JWT = {}
  const keys = Object.keys(token)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (OWN_CLAIMS.has(key)) continue
    if (key === "__proto__") Object.defineProperty(out, key, { value: token[key], enumerable: true, writable: true, configurable: true })
    else out[key] = token[key]
  }
  const symbols = Object.getOwnPropertySymbols(token)
  for (let i = 0; i < symbols.length; i++) {
    const symbol = symbols[i]!
    if (Object.prototype.propertyIsEnumerable.call(token, symbol)) (out as Record<symbol, unknown>)[symbol] = (token as Record<symbol, unknown>)[symbol]
  }
  return out
}

/**
 * `token` whose authentication claims are exactly `facts` (absent when unknown) and whose session
 * started at `sessionStart`, whatever it held: the `jwt` callback cannot add, drop or change them
 * (a callback that copies client data from a session update into the token must not make a session
 * look freshly authenticated, nor younger than it is).
 */
export function withAuthenticationClaims(token: JWT, facts: Authentication | AuthenticationFacts | undefined, sessionStart: number): JWT {
  const out = otherClaims(token)
  const time = facts ? ("time" in facts ? facts.time : facts.authTime) : null
  if (time !== null) {
    out[AUTH_TIME_CLAIM] = time
    out[AMR_CLAIM] = [...(facts?.amr ?? [])]
  }
  out[SESSION_START_CLAIM] = sessionStart
  return out
}
