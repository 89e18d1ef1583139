/**
 * CSRF protection for every state-changing POST, in two layers:
 *
 * 1. Double-submit token. GET /csrf (and the built-in pages) hand out a random token; the CSRF
 *    cookie holds `token|sha256(token + secret)`, so only the server can mint a valid pair. A POST
 *    must carry `csrfToken` in its body equal (constant-time) to the cookie's token.
 * 2. Same origin. A POST's `Origin` must be the application's origin; without `Origin` (or with
 *    the opaque `null`), a `Sec-Fetch-Site` other than `same-origin` / `none` is refused, and an
 *    opaque origin without fetch metadata is refused. Requests carrying neither header
 *    (non-browser clients) rely on the token alone.
 *
 * `skipCSRFCheck` switches both off. Only a binding that already enforces an equivalent check on
 * every POST (same-origin plus an unguessable token) may set it: anywhere else, another site can
 * sign your users in or out (login CSRF) and update their sessions.
 */
import { MissingCSRF } from "../errors/errors.js"
import type { Cookie } from "../cookies/serialize.js"
import type { AuthRequest, Context } from "../types/http.js"
import { randomToken, sha256, timingSafeEqual } from "./random.js"
import { isSameOrigin } from "./redirect.js"
import { limitClient } from "../rate-limit/limiter.js"

const hashOf = (token: string, secret: string) => sha256(`${token}${secret}`)

/** The token of a valid CSRF cookie (its hash matching one of the secrets), else undefined. */
export function verifiedCookieToken(req: AuthRequest, ctx: Context): string | undefined {
  const value = req.cookies[ctx.cookies.csrfToken.name]
  if (!value) return undefined
  const bar = value.indexOf("|")
  if (bar <= 0) return undefined
  const token = value.slice(0, bar)
  const hash = value.slice(bar + 1)
  if (hash === "" || hash.includes("|")) return undefined
  for (const secret of ctx.config.secret) if (timingSafeEqual(hash, hashOf(token, secret))) return token
  return undefined
}

/**
 * The request's CSRF token, minting a new one (and its cookie) when it has none that verifies.
 * Mints count against `rateLimit.csrf.perClient`.
 */
export async function csrfTokenFor(req: AuthRequest, ctx: Context): Promise<{ token: string; cookie?: Cookie }> {
  const existing = verifiedCookieToken(req, ctx)
  if (existing) return { token: existing }
  await limitClient(req, ctx, "csrf.perClient")
  const token = randomToken(32)
  const value = `${token}|${hashOf(token, ctx.config.secret[0]!)}`
  return { token, cookie: { name: ctx.cookies.csrfToken.name, value, options: ctx.cookies.csrfToken.options } }
}

function assertSameOrigin(req: AuthRequest, ctx: Context): void {
  const origin = req.headers.get("origin")
  // "null" is an opaque origin: sent by sandboxed frames and also by a same-origin form under a
  // `no-referrer` policy, so it proves nothing either way; fetch metadata decides then.
  if (origin !== null && origin !== "null") {
    // Browsers send the serialised origin, so the exact string is the common, cheap case.
    if (origin === ctx.origin || isSameOrigin(origin, ctx.origin) || isSameOrigin(origin, req.url.origin)) return
    throw new MissingCSRF("The request's Origin is not this application's", { code: "CSRF_ORIGIN_MISMATCH", cause: { expected: ctx.origin, received: origin.slice(0, 200) } })
  }
  const site = req.headers.get("sec-fetch-site")
  if (site === null) {
    if (origin === "null") throw new MissingCSRF("The request's Origin is opaque and it carries no Sec-Fetch-Site", { code: "CSRF_ORIGIN_OPAQUE" })
    return
  }
  if (site !== "same-origin" && site !== "none")
    throw new MissingCSRF("The request comes from another site (Sec-Fetch-Site)", { code: "CSRF_CROSS_SITE", cause: { received: site.slice(0, 50) } })
}

/**
 * Throws `MissingCSRF` unless the POST passes both layers (or `skipCSRFCheck` is set). Synchronous
 * (SHA-256 is), so a route spends no extra microtask on it.
 */
export function assertCsrf(req: AuthRequest, ctx: Context): void {
  if (ctx.config.skipCSRFCheck) return
  assertSameOrigin(req, ctx)
  const sent = req.body.csrfToken
  if (typeof sent !== "string" || sent === "") throw new MissingCSRF('"csrfToken" is missing from the body', { code: "CSRF_TOKEN_MISSING" })
  const expected = verifiedCookieToken(req, ctx)
  if (!expected) throw new MissingCSRF("The CSRF cookie is missing or invalid", { code: "CSRF_COOKIE_INVALID" })
  if (!timingSafeEqual(sent, expected)) throw new MissingCSRF('"csrfToken" does not match the CSRF cookie', { code: "CSRF_TOKEN_MISMATCH" })
}
