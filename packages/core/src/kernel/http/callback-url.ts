/**
 * The URL a user returns to after signing in or out: `callbackUrl` from the body, the query or (for
 * flows that leave the site) the callback-url cookie, always passed through the `redirect`
 * callback (default: same-origin only). The result is remembered in the callback-url cookie.
 */
import { InvalidCallbackUrl } from "../errors/errors.js"
import { runUserCode } from "../user-code/run.js"
import { defaultRedirect } from "../security/redirect.js"
import type { Cookie } from "../cookies/serialize.js"
import type { AuthRequest, Context } from "../types/http.js"

const CONTROL_CHARS = /[\u0000-\u001f\u007f]/

/** What the callback URL is read from: never the whole request, so a caller can hand in parts of its own. */
type CallbackUrlSource = Pick<AuthRequest, "body" | "query" | "cookies">

function candidate(req: CallbackUrlSource, ctx: Context, useCookie: boolean): string | undefined {
  const fromBody = req.body.callbackUrl
  if (typeof fromBody === "string" && fromBody !== "") return fromBody
  if (req.query.callbackUrl) return req.query.callbackUrl
  return useCookie ? req.cookies[ctx.cookies.callbackUrl.name] || undefined : undefined
}

/**
 * The default `redirect` callback's last answer. It is a pure function of `(url, baseUrl)` that
 * never throws, and most requests ask the same question (no `callbackUrl`: the origin itself), so
 * one remembered answer spares every sign-in and sign-out two URL parses and the user-code runner.
 */
let lastDefault = { url: "", baseUrl: "", out: "" }

function viaDefaultRedirect(url: string, baseUrl: string): string {
  const last = lastDefault
  if (last.url === url && last.baseUrl === baseUrl) return last.out
  const out = defaultRedirect({ url, baseUrl })
  lastDefault = { url, baseUrl, out }
  return out
}

/** Validates the requested callback URL; default: the application origin. */
export async function resolveCallbackUrl(req: CallbackUrlSource, ctx: Context, useCookie: boolean): Promise<string> {
  const url = candidate(req, ctx, useCookie) ?? ctx.origin
  const { callbacks } = ctx.config
  const out: unknown = callbacks.redirect === defaultRedirect
    ? viaDefaultRedirect(url, ctx.origin)
    : await runUserCode("callback", "redirect", () => callbacks.redirect({ url, baseUrl: ctx.origin }))
  if (typeof out !== "string" || out === "") throw new InvalidCallbackUrl('"redirect" callback must return a URL string', { code: "CALLBACK_URL_INVALID" })
  // Trusted, yet sent as a Location header: a permissive callback passing `...\r\nSet-Cookie:` through
  // would make the Response constructor throw (a 500) instead of an error page.
  if (CONTROL_CHARS.test(out)) throw new InvalidCallbackUrl('"redirect" callback returned a URL with control characters', { code: "CALLBACK_URL_CONTROL_CHARS" })
  return out
}

/** The callback-url cookie remembering `url` across an off-site flow (OAuth, e-mail). */
export function callbackUrlCookie(url: string, ctx: Context): Cookie {
  return { name: ctx.cookies.callbackUrl.name, value: url, options: ctx.cookies.callbackUrl.options }
}
