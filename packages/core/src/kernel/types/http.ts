/**
 * The internal request and response of core. A `Request` becomes an `AuthRequest` in
 * `http/parse-request.ts`; routes return an `AuthResponse`; only `http/to-response.ts` makes a `Response`.
 */
import type { ResolvedConfig } from "./resolved-config.js"
import type { CookieOption, CookiesOptions } from "./config.js"
import type { RequestMemo } from "./request-memo.js"

/**
 * An action under `basePath` (design.md "Routes"): one the kernel or a capability declares (the
 * registry, `kernel/registry/`, is the list; the core README's route table is tested against it).
 */
export type AuthAction = string

/** A parsed, validated request. */
export interface AuthRequest {
  /** The original request (its body has been read). */
  readonly request: Request
  readonly method: "GET" | "POST"
  readonly action: AuthAction
  readonly providerId: string | undefined
  readonly url: URL
  readonly query: Readonly<Record<string, string>>
  /** Form or JSON body of a POST (`{}` for GET). */
  readonly body: Readonly<Record<string, unknown>>
  /** The body text as received, to rebuild a Request for `authorize`. */
  readonly rawBody: string | undefined
  readonly cookies: Readonly<Record<string, string>>
  readonly headers: Headers
  /** The peer address the caller handed in (`Auth(request, config, { clientAddress })`). */
  readonly clientAddress: string | undefined
}

/** What a route answers. Exactly one of `redirect`, `html`, `json` is normally set. */
export interface AuthResponse<Body = unknown> {
  status?: number
  headers?: Record<string, string>
  redirect?: string
  html?: string
  /** A body of another type (SAML metadata XML), sent as it is. */
  text?: { body: string; type: string }
  json?: Body
  cookies?: Cookie[]
}

/** What every route and flow receives beside the request. */
export interface Context {
  readonly config: ResolvedConfig
  /** Origin of the application: `url`/`WEBAUTH_URL` when set, else the (trusted) request's. */
  readonly origin: string
  /** `origin + basePath`: the prefix of every action URL. */
  readonly actionBase: string
  /** Whether cookies are `Secure` and prefixed. */
  readonly secure: boolean
  readonly cookies: CookiesOptions
  /** What this request has worked out once and reuses (its held sign-in, principal, verified factors). */
  readonly memo: RequestMemo
}

/** One cookie to set (or clear, with `maxAge: 0`). */
export interface Cookie {
  name: string
  value: string
  options: CookieOption["options"]
}
