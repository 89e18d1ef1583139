/**
 * Sign-in from the server (the `useSignIn` action, or `signIn(ev, input)` in your own action):
 * CSRF token from core, then core's own POST, in-process.
 *
 * - Credentials providers (any id whose type is `credentials`): core runs with the `raw` marker, so
 *   `authorize` refusing the sign-in reaches the caller as the thrown `CredentialsSignin` (with its
 *   `code`) and nothing redirects (spec section 3, last row). Success redirects to `redirectTo`.
 * - OAuth, OIDC and e-mail providers: core answers with a redirect (the provider's authorization
 *   URL, or the verify-request page) and the action follows it; errors go to the error page as in
 *   the browser flow.
 * - Without `providerId`: the sign-in page.
 */
import { Auth, InvalidProvider, raw, type AuthConfig } from "@authlib/core"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, requestOptions, requireContext, type AuthContext } from "./context.js"
import { applyCookies } from "./cookies.js"
import { coreCall, csrfToken, currentPage, failedCall, providerType, redirectFromAction } from "./core-calls.js"
import type { QwikAuthConfig } from "./env.js"
import type { SignInInput } from "./types.js"

const rawConfigs = new WeakMap<QwikAuthConfig, AuthConfig & { raw: typeof raw }>()

/** The config with the `raw` marker, one object per config so core's resolve cache keeps working. */
function rawConfig(config: QwikAuthConfig): AuthConfig & { raw: typeof raw } {
  let found = rawConfigs.get(config)
  if (!found) rawConfigs.set(config, (found = { ...config, raw }))
  return found
}

function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value)
}

/** The form core receives: the provider's fields from `options`, then the binding's own. */
function formBody(input: SignInInput, fields: Record<string, string>): URLSearchParams {
  const body = new URLSearchParams()
  for (const [key, value] of Object.entries(input.options ?? {})) {
    if (key !== "redirectTo" && value !== undefined && value !== null) body.set(key, text(value))
  }
  for (const [key, value] of Object.entries(fields)) body.set(key, value)
  return body
}

async function credentialsSignIn(ev: RequestEventCommon, ctx: AuthContext, id: string, body: URLSearchParams): Promise<string> {
  const request = internalRequest(ev, ctx, `callback/${encodeURIComponent(id)}`, { method: "POST", body })
  const result = await Auth(request, rawConfig(ctx.config), requestOptions(ev))
  applyCookies(ev, result.cookies)
  // A later session read in this request must see the new session cookie, not a cached result.
  ctx.session = undefined
  // Raw mode resolves (not throws) a request core refused as malformed (413, 431): that is a
  // failed sign-in, never a reason to send the user to the unchecked `redirectTo`.
  if (result.redirect === undefined) throw failedCall(`POST ${ctx.basePath}/callback/${id}`, result.status, result.json)
  return result.redirect
}

async function redirectingSignIn(ev: RequestEventCommon, ctx: AuthContext, id: string, body: URLSearchParams, input: SignInInput): Promise<string> {
  const search = new URLSearchParams(input.authorizationParams ?? "")
  const result = await coreCall(ev, ctx, `signin/${encodeURIComponent(id)}`, { method: "POST", body, search })
  if (result.redirect === undefined) throw failedCall(`POST ${ctx.basePath}/signin/${id}`, result.status, result.json)
  return result.redirect
}

function signInPage(ctx: AuthContext, callbackUrl: string): string {
  const page = ctx.config.pages?.signIn ?? `${ctx.basePath}/signin`
  return `${page}${page.includes("?") ? "&" : "?"}${new URLSearchParams({ callbackUrl })}`
}

/** Runs a sign-in for `input` within the request's context; ends with a redirect (see `redirectFromAction`) or a thrown error. */
export async function runSignIn(ev: RequestEventCommon, ctx: AuthContext, input: SignInInput): Promise<void> {
  const callbackUrl = input.redirectTo ?? input.options?.redirectTo ?? currentPage(ev)
  const id = input.providerId
  if (!id) return redirectFromAction(ev, ctx, signInPage(ctx, callbackUrl))
  const type = await providerType(ev, ctx, id)
  if (type === undefined) {
    throw new InvalidProvider(`Unknown provider "${id.slice(0, 100)}"`, { code: "UNKNOWN_PROVIDER", cause: { provider: id.slice(0, 100) } })
  }
  const body = formBody(input, { csrfToken: await csrfToken(ev, ctx), callbackUrl })
  if (type === "credentials") {
    return redirectFromAction(ev, ctx, await credentialsSignIn(ev, ctx, id, body))
  }
  return redirectFromAction(ev, ctx, await redirectingSignIn(ev, ctx, id, body, input))
}

/**
 * Signs in from your own server code (a `routeAction$`, `server$` or endpoint): same input and
 * behaviour as `useSignIn`. On success it throws Qwik's redirect (or, for a client-side action
 * request leaving the app, sets it for Qwik City's client and returns); a credentials provider's
 * refusal throws `CredentialsSignin` (other `AuthError`s likewise); an id no provider has throws
 * `InvalidProvider` (code `UNKNOWN_PROVIDER`).
 *
 * @example
 * ```ts
 * export const useLogin = routeAction$(async (form, ev) => {
 *   try {
 *     await signIn(ev, { providerId: "credentials", options: form, redirectTo: "/account" })
 *   } catch (err) {
 *     if (err instanceof CredentialsSignin) return ev.fail(401, { message: "Wrong e-mail or password", code: err.code })
 *     throw err // the redirect
 *   }
 * })
 * ```
 */
export async function signIn(ev: RequestEventCommon, input: SignInInput = {}): Promise<void> {
  return runSignIn(ev, await requireContext(ev, "signIn"), input)
}
