/**
 * The configuration types of the spec (section 2): options, callbacks, events, `AuthConfig`. The
 * shared data model lives in `model.ts`, provider config types in `providers.ts`, adapter
 * types in `adapters.ts`.
 */
import type { Awaitable, JWT, JWTOptions, LoggerInstance } from "@authlib/jwt"
import type { Adapter, AdapterSession, AdapterUser } from "./adapters.js"
import type { Account, DefaultSession, Profile, Session, Theme, User } from "./model.js"
import type { Provider } from "./providers.js"
import type { RateLimitOptions } from "./rate-limit.js"
import type { RefreshTokenError } from "../errors/errors.js"

export type { Awaitable, JWT, JWTOptions, LoggerInstance }
export type { Account, AuthorizationDetails, DefaultSession, JsonValue, Profile, Session, Theme, User } from "./model.js"

/** Session options (spec 2.2). */
export interface SessionOptions {
  /** Default `jwt`, or `database` when an adapter is configured. */
  strategy: "jwt" | "database"
  /** Seconds until an idle session expires. Default 30 days. */
  maxAge: number
  /** Seconds between session writes/refreshes. Default 1 day; 0 = every access. */
  updateAge: number
  /**
   * Seconds a session may last from its sign-in, whatever renews it (OWASP ASVS 5.0 7.3.2): sliding
   * renewal (`maxAge`, `updateAge`), session updates, the `jwt` callback and step-up never move its
   * end past sign-in + `absoluteMaxAge`; past it the session reads as none and cannot act, and the
   * user signs in again. Counted from the sign-in the session records (JWT claim `sessionStart`,
   * the stored session's `createdAt`). A whole number of seconds above 0; default: none (a session
   * lives as long as it is used within `maxAge`, as in Auth.js). Database sessions need an adapter
   * that keeps session metadata (the `sessionListing` port). See the README's "Absolute session lifetime".
   */
  absoluteMaxAge: number | undefined
  /** Generates the database session token. Default: 256 random bits, base64url. */
  generateSessionToken: () => string
  /**
   * A request with no authlib session cookie but an Auth.js v5 or NextAuth.js v4 one
   * (`authjs.session-token`, `__Secure-authjs.session-token`, `next-auth.session-token`,
   * `__Secure-next-auth.session-token`, chunked or not; on an https origin only the `__Secure-`
   * names) is read as the session, then re-issued under authlib's name while the old cookie
   * is cleared, so moving from Auth.js signs no one out. JWT strategy: the token is decoded with the
   * same secrets and that cookie's name as salt (v5), or, for a token of v4's shape in a `next-auth.*`
   * cookie, with v4's key (`NEXTAUTH_SECRET` kept as `AUTH_SECRET`). Database strategy: the cookie's session token is
   * looked up like ours, which finds the sessions moved with `@authlib/xata-adapter`'s
   * `migrateFromAuthJs` (it stores their tokens hashed). Default `true`; `false` ignores those cookies.
   */
  acceptAuthJsSessions: boolean
  /**
   * JWT strategy: keep each OAuth/OIDC sign-in's `access_token`, `refresh_token`, `expires_at`,
   * `token_type` and `scope` inside the encrypted session token (claim `providerTokens`), so that
   * `getAccessToken` works without an adapter and re-issues the cookie after a refresh. Off by
   * default: provider tokens are not put in a cookie by surprise. A `jwt` callback that builds a new
   * token must carry `providerTokens` over. With an adapter that stores accounts, the account rows
   * are used instead.
   */
  providerTokens: boolean
  /**
   * JWT strategy with an adapter that keeps session epochs (`getUserSessionEpoch`,
   * `incrementUserSessionEpoch`): when a token is checked against its user's epoch, so that
   * `revokeUserSessions` and signing out everywhere end it. `"on-reissue"` (default): when the
   * token is re-issued (every `updateAge`, on an update, or when the `jwt` callback changes it), one
   * adapter read per re-issue; a revoked token keeps working until then. `"every-request"`: on every
   * read of the session, one adapter read per request; revocation is immediate. Without such an
   * adapter JWT sessions cannot be revoked before they expire.
   */
  checkRevocation: "on-reissue" | "every-request"
}

/** Attributes of one cookie. */
export interface CookieOption {
  name: string
  options: {
    httpOnly?: boolean
    sameSite?: "lax" | "strict" | "none" | boolean
    path?: string
    secure?: boolean
    domain?: string
    maxAge?: number
    expires?: Date
    partitioned?: boolean
  }
}

/** Names and attributes of every cookie authlib sets. */
export interface CookiesOptions {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  pkceCodeVerifier: CookieOption
  state: CookieOption
  nonce: CookieOption
  webauthnChallenge: CookieOption
}

/**
 * The top-level options capabilities add to `AuthConfig`, by declaration merging: a capability
 * augments this interface in its own folder (`declare module ".../kernel/types/config.js"`) and
 * declares the option's resolution (`Capability.options`), so the kernel never names it.
 */
export interface CapabilityOptions {}

/** The pages capabilities add to `PagesOptions` (augmented like `CapabilityOptions`); a route declares its page key. */
export interface CapabilityPages {}

/** Paths that replace built-in pages. */
export interface PagesOptions extends CapabilityPages {
  signIn: string
  signOut: string
  error: string
  verifyRequest: string
  /** Where a user is sent after their first sign-in. */
  newUser: string
}

/** Callbacks (spec 2.6). */
export interface CallbacksOptions {
  signIn: (params: {
    user: User | AdapterUser
    account: Account | null
    profile?: Profile
    email?: { verificationRequest?: boolean }
    credentials?: Record<string, unknown>
  }) => Awaitable<boolean | string>
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>
  session: (
    params: ({ session: Session; token: JWT; user?: undefined } | { session: Session; user: AdapterUser; token?: undefined }) & {
      newSession?: any
      trigger?: "update"
    },
  ) => Awaitable<Session | DefaultSession>
  jwt: (params: {
    token: JWT
    user?: User | AdapterUser
    account?: Account | null
    profile?: Profile
    trigger?: "signIn" | "signUp" | "update"
    /** @deprecated use `trigger === "signUp"` */
    isNewUser?: boolean
    session?: any
  }) => Awaitable<JWT | null>
}

/** Events (spec 6): audit notifications that return nothing. */
export interface EventCallbacks {
  signIn: (message: { user: User; account?: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  signOut: (message: { session: AdapterSession | null | undefined | void } | { token: JWT | null }) => Awaitable<void>
  createUser: (message: { user: User }) => Awaitable<void>
  updateUser: (message: { user: User }) => Awaitable<void>
  linkAccount: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>
  session: (message: { session: Session; token: JWT }) => Awaitable<void>
  /**
   * authlib extension: `getAccessToken` found a provider's refresh token refused (`INVALID_GRANT`:
   * revoked, expired or already used). The user stays signed in to the app; sign them out or send
   * them to the provider again from here if the app needs the provider.
   */
  refreshTokenError: (message: { provider: string; userId: string; error: RefreshTokenError }) => Awaitable<void>
}

/** What the caller of `Auth()` knows about a request that the `Request` itself does not carry. */
export interface AuthRequestOptions {
  /**
   * The address of the peer that sent the request (the socket's remote address), for per-client
   * rate limits. `@authlib/core/node` and `@authlib/qwik` pass it for you. Forwarding headers are
   * read only with `rateLimit.trustedProxies`; never pass a header value here unless your platform
   * sets it and strips what the client sent (such as `CF-Connecting-IP` on Cloudflare).
   */
  clientAddress?: string
}

/** The configuration of `Auth` (spec 2.1); capabilities add their own options (`CapabilityOptions`). */
export interface AuthConfig extends CapabilityOptions {
  providers: Provider[]
  adapter?: Adapter
  /** Default `/auth`. */
  basePath?: string
  /**
   * The application URL (default from env `WEBAUTH_URL`). When set, its origin is used for every
   * link and callback URL instead of the request's Host header. authlib extension (spec 2.1 leaves
   * the application URL to the environment).
   */
  url?: string
  callbacks?: Partial<CallbacksOptions>
  cookies?: Partial<{ [K in keyof CookiesOptions]: Partial<CookiesOptions[K]> }>
  /** Default false; ignored when `logger` is set. */
  debug?: boolean
  events?: Partial<EventCallbacks>
  experimental?: { enableWebAuthn?: boolean }
  jwt?: Partial<JWTOptions>
  logger?: Partial<LoggerInstance>
  pages?: Partial<PagesOptions>
  /**
   * The stable deployment that receives every OAuth callback and forwards it to the deployment that
   * started the sign-in (preview deployments). Default from `AUTH_REDIRECT_PROXY_URL`. Every
   * deployment that starts sign-ins through the proxy must have `url` (`WEBAUTH_URL`) set: its
   * callback URL is sealed into the OAuth `state`, never taken from request headers.
   */
  redirectProxyUrl?: string
  /**
   * On the proxy deployment: the origins it may forward a callback (and the authorization code in
   * it) to. A `*` stands for part of one host label: `https://*.example.app`,
   * `https://myapp-*-team.vercel.app`. Empty by default: nothing is forwarded. Default from
   * `AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS` (comma-separated).
   */
  redirectProxyAllowedOrigins?: string[]
  /**
   * Rate limits (authlib extension). On by default with the defaults of `RateLimitOptions`, in a
   * per-process memory store; `false` turns every limit off. See the README's "Rate limits".
   */
  rateLimit?: RateLimitOptions | false
  secret?: string | string[]
  session?: Partial<SessionOptions>
  /** Marker value: see `skipCSRFCheck`. */
  skipCSRFCheck?: typeof import("./skip-csrf.js").skipCSRFCheck
  theme?: Theme
  /** Must be true (spec 1.6). */
  trustHost?: boolean
  useSecureCookies?: boolean
  /** Marker value: see `raw`. Makes `Auth` return the internal result instead of a Response. */
  raw?: typeof import("./raw.js").raw
}
