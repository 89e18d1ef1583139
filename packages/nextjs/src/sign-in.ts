/**
 * Server-side `signIn(provider, options, authorizationParams)`, for server actions and route
 * handlers, with Auth.js v5's signature and results: the CSRF token from core (GET /csrf, in
 * process, its cookie carried by the scope's jar), then core's own POST, in process. So the sign-in
 * runs core's full CSRF check: the double-submit token the binding obtained, and the same-origin
 * check on the browser's own `Origin` / `Sec-Fetch-Site`, which the in-process request carries.
 *
 * - Credentials providers: core runs with the `raw` marker, so `authorize` refusing the sign-in
 *   reaches the caller as the thrown `CredentialsSignin` (`type` `"CredentialsSignin"`, with its
 *   `code`). Success redirects to `redirectTo` with the session cookie set.
 * - OAuth, OIDC, e-mail: core answers the provider's authorization URL (or the verify-request
 *   page), and `signIn` redirects there.
 * - No provider, or an id no provider has: the sign-in page, with `redirectTo` as `callbackUrl`.
 *
 * `redirect: false` answers the URL instead of redirecting.
 */
import { Auth, raw, type AuthConfig } from "@authlib/core"
import { redirect as nextRedirect } from "./navigation.js"
import { csrfToken, failedCall, providerType } from "./core-calls.js"
import { internalRequest, coreCall } from "./internal-request.js"
import { applyCookies, type RequestScope } from "./scope.js"
import type { NextAuthConfig } from "./config.js"

/** `signIn`'s options: the provider's fields (credentials, an e-mail address), and where to go. */
export type SignInOptions = Record<string, unknown> & {
  /** Where the user lands after signing in. Default: the page the action was called from (`Referer`), else `/`. */
  redirectTo?: string
  /** `false`: answer the URL instead of redirecting. Default `true`. */
  redirect?: boolean
}

/** Extra parameters of the provider's authorization request (OAuth/OIDC), as Auth.js takes them. */
export type SignInAuthorizationParams = string[][] | Record<string, string> | string | URLSearchParams

const rawConfigs = new WeakMap<NextAuthConfig, AuthConfig & { raw: typeof raw }>()

/** The config with the `raw` marker, one object per config so core's resolve cache keeps working. */
function rawConfig(config: NextAuthConfig): AuthConfig & { raw: typeof raw } {
  let found = rawConfigs.get(config)
  if (!found) rawConfigs.set(config, (found = { ...config, raw }))
  return found
}

function text(value: unknown): string {
  return typeof value === "string" ? value : value instanceof Blob ? "" : JSON.stringify(value)
}

/** `options` as a plain record: a `FormData` (a `<form action={...}>`) gives its fields. */
export function optionsRecord(options: SignInOptions | FormData | undefined): SignInOptions {
  if (!options) return {}
  if (options instanceof FormData) {
    const record: SignInOptions = {}
    // Next adds `$ACTION_...` fields to a form posted to a server action: they are not the provider's.
    for (const [key, value] of options) if (!key.startsWith("$ACTION")) record[key] = value
    const redirect: unknown = record.redirect
    if (redirect !== undefined) record.redirect = redirect !== "false"
    return record
  }
  return options
}

/** The form core receives: the provider's fields, then the binding's own. */
function formBody(options: SignInOptions, fields: Record<string, string>): URLSearchParams {
  const body = new URLSearchParams()
  for (const [key, value] of Object.entries(options)) {
    if (key !== "redirectTo" && key !== "redirect" && value !== undefined && value !== null) body.set(key, text(value))
  }
  for (const [key, value] of Object.entries(fields)) body.set(key, value)
  return body
}

async function credentialsSignIn(scope: RequestScope, id: string, body: URLSearchParams): Promise<string> {
  const request = internalRequest(scope, `callback/${encodeURIComponent(id)}`, { method: "POST", body })
  const result = await Auth(request, rawConfig(scope.config))
  applyCookies(scope, result.cookies)
  // Raw mode resolves (not throws) a request core refused as malformed (413): a failed sign-in,
  // never a reason to send the user to the unchecked `redirectTo`.
  if (result.redirect === undefined) throw failedCall(`POST ${scope.basePath}/callback/${id}`, result.status, result.json)
  return result.redirect
}

async function redirectingSignIn(scope: RequestScope, id: string, body: URLSearchParams, params: SignInAuthorizationParams | undefined): Promise<string> {
  const search = new URLSearchParams(params ?? "")
  const result = await coreCall(scope, `signin/${encodeURIComponent(id)}`, { method: "POST", body, search })
  if (result.redirect === undefined) throw failedCall(`POST ${scope.basePath}/signin/${id}`, result.status, result.json)
  return result.redirect
}

function signInPage(scope: RequestScope, callbackUrl: string): string {
  const page = scope.config.pages?.signIn ?? `${scope.basePath}/signin`
  const url = new URL(page, scope.origin)
  url.searchParams.set("callbackUrl", callbackUrl)
  return url.href
}

/** Where a sign-in or sign-out goes when the caller named no place: the page it was called from, else `/`. */
export function defaultRedirect(scope: RequestScope): string {
  return scope.headers.get("referer") ?? "/"
}

/** The URL the sign-in ends at (after setting cookies through the scope). */
export async function signInUrl(scope: RequestScope, provider: string | undefined, options: SignInOptions, params?: SignInAuthorizationParams): Promise<string> {
  const callbackUrl = options.redirectTo ?? defaultRedirect(scope)
  const type = provider ? await providerType(scope, provider) : undefined
  if (!provider || type === undefined) return signInPage(scope, callbackUrl)
  const body = formBody(options, { csrfToken: await csrfToken(scope), callbackUrl })
  if (type === "credentials") return credentialsSignIn(scope, provider, body)
  return redirectingSignIn(scope, provider, body, params)
}

/** Ends a server action at `url` (Next's `redirect`, which throws), or answers it with `redirect: false`. */
export function finish(url: string, redirect: boolean | undefined): string {
  if (redirect === false) return url
  return nextRedirect(url)
}
