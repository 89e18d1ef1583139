/**
 * Provider configuration types (spec 2.5). Runtime behaviour of each type lives in `flows/`.
 */
import type { Awaitable } from "@authlib/jwt"
import type { Account, CapabilityProviderTypes, Profile, ProviderType, Theme, User, WebAuthnProviderType } from "./model.js"
import type { Adapter, AdapterUser } from "./adapters.js"

export type { CapabilityProviderTypes, OAuthProviderType, ProviderType, WebAuthnProviderType } from "./model.js"

/** Fields every provider has. */
export interface CommonProviderOptions {
  /** Unique among providers; part of the provider's URLs. */
  id: string
  /** Label on the default sign-in button. */
  name: string
  type: ProviderType
}

/** The provider as presented to the application (GET /providers). */
export interface AppProvider extends Pick<CommonProviderOptions, "id" | "name" | "type"> {
  signinUrl: string
  callbackUrl: string
}

/** Button styles of the built-in sign-in page. */
export interface OAuthProviderButtonStyles {
  logo?: string
  brandColor?: string
  /** @deprecated use `brandColor` */
  bg?: string
  /** @deprecated */
  text?: string
}

/** The token endpoint response, as seen by the `account` callback. */
export interface TokenSet {
  access_token?: string
  token_type?: string
  id_token?: string
  refresh_token?: string
  scope?: string
  expires_in?: number
  expires_at?: number
  session_state?: string
  authorization_details?: Array<{ type: string; [key: string]: unknown }>
  [key: string]: unknown
}

/**
 * An endpoint given as a URL with extra query parameters, or with a `request` function that
 * replaces the built-in call. `request` receives the context of the flow and returns the value
 * the built-in call would have produced.
 */
export interface EndpointHandler<Params extends Record<string, unknown> = Record<string, unknown>, Ctx = any, Result = any> {
  url?: string
  params?: Params
  request?: (context: Ctx) => Awaitable<Result>
  /** Treat the response in a provider-specific way (used by presets such as GitHub's e-mail lookup). */
  conform?: (response: Response) => Awaitable<Response | undefined>
}

export type AuthorizationEndpointHandler = EndpointHandler<Record<string, string>>
export type TokenEndpointHandler = EndpointHandler<Record<string, string>, { params: Record<string, string>; provider: OAuthConfigInternal<any>; checks: Record<string, string | undefined> }, { tokens: TokenSet }>
/** The userinfo endpoint; `request` returns the provider's own profile type `P` (GitHub's `id` is a number). */
export type UserinfoEndpointHandler<P = Profile> = EndpointHandler<Record<string, string>, { tokens: TokenSet; provider: OAuthConfigInternal<any> }, P>

/** Overrides of the OAuth client's metadata. */
export interface OAuthClientOverrides {
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "none" | (string & {})
  id_token_signed_response_alg?: string
  authorization_signed_response_alg?: string
  userinfo_signed_response_alg?: string
  [key: string]: unknown
}

export type OAuthChecks = "pkce" | "state" | "none"
export type OIDCChecks = OAuthChecks | "nonce"

/** Receives the token set; returns what is stored as the account. */
export type AccountCallback = (tokens: TokenSet) => Awaitable<Record<string, unknown> | undefined | void>
/** Maps the provider's profile to a user. */
export type ProfileCallback<P> = (profile: P, tokens: TokenSet) => Awaitable<User>

/**
 * Fields shared by OAuth 2 and OIDC providers. Kept free of an index signature so `Omit`/`Partial`
 * of it keep every field typed (an index signature would collapse them to `unknown`).
 */
export interface OAuthProviderFields<P = Profile> extends CommonProviderOptions {
  authorization?: string | AuthorizationEndpointHandler
  token?: string | TokenEndpointHandler
  userinfo?: string | UserinfoEndpointHandler<P>
  /** Discovery document URL; replaces authorization/token/userinfo for OIDC-compliant providers. */
  wellKnown?: string
  issuer?: string
  jwks_endpoint?: any
  clientId?: string
  clientSecret?: string
  client?: OAuthClientOverrides
  account?: AccountCallback
  profile?: ProfileCallback<P>
  allowDangerousEmailAccountLinking?: boolean
  redirectProxyUrl?: string
  style?: OAuthProviderButtonStyles
}

/** An OAuth 2 provider (`type: "oauth"`). */
export interface OAuth2Config<P = Profile> extends OAuthProviderFields<P> {
  type: "oauth"
  /** Default `["pkce"]`; `state` is added when a redirect proxy is used. */
  checks?: OAuthChecks[]
  /** User overrides of the preset's config. */
  options?: OAuthUserConfig<P>
  [key: string]: unknown
}

/** An OpenID Connect provider (`type: "oidc"`). */
export interface OIDCConfig<P = Profile> extends OAuthProviderFields<P> {
  type: "oidc"
  /** Default `["pkce"]`; `state` is added when a redirect proxy is used. */
  checks?: OIDCChecks[]
  /** When false, user data comes from the userinfo endpoint. Default true. */
  idToken?: boolean
  /**
   * authlib extension (OpenID Connect RP-Initiated Logout): signing out also sends the browser to
   * the provider's `end_session_endpoint` with `id_token_hint` and the sign-out's checked callback URL
   * as `post_logout_redirect_uri` (register it at the provider), when the user's account of this
   * provider holds an ID token (an adapter with `listAccountsByUserId`). Default false.
   */
  signOutAtProvider?: boolean
  /** User overrides of the preset's config. */
  options?: OIDCUserConfig<P>
  [key: string]: unknown
}

export type OAuthConfig<P = Profile> = OAuth2Config<P> | OIDCConfig<P>
/** Internal: an OAuth config after defaults are applied. */
export type OAuthConfigInternal<P = Profile> = OAuthConfig<P>

/** What a user may pass to an OAuth preset. */
export type OAuthUserConfig<P = Profile> = Omit<Partial<OAuthProviderFields<P>>, "type"> & {
  checks?: OAuthChecks[]
  [key: string]: unknown
}
export type OIDCUserConfig<P = Profile> = Omit<Partial<OAuthProviderFields<P>>, "type"> & {
  checks?: OIDCChecks[]
  idToken?: boolean
  signOutAtProvider?: boolean
  [key: string]: unknown
}

/** Describes one field of the built-in credentials form. */
export interface CredentialInput {
  label?: string
  type?: string
  value?: string
  placeholder?: string
  required?: boolean
  autocomplete?: string
}

/** A credentials provider (`type: "credentials"`). */
export interface CredentialsConfig<C extends Record<string, CredentialInput> = Record<string, CredentialInput>> extends CommonProviderOptions {
  type: "credentials"
  credentials: C
  /**
   * Returns the user for these credentials, or null. Throw `CredentialsSignin` (or a subclass with
   * its own `code`) to say why; the `code` ends up in a URL, so keep it free of sensitive detail.
   */
  authorize: (credentials: Partial<Record<keyof C, unknown>>, request: Request) => Awaitable<User | null>
  options?: Partial<Omit<CredentialsConfig<C>, "options" | "type">>
}
export type CredentialsProviderId = "credentials" | (string & {})

/** Parameters of `sendVerificationRequest`. */
export interface EmailProviderSendVerificationRequestParams {
  identifier: string
  url: string
  expires: Date
  provider: EmailConfig
  token: string
  theme: Theme
  request: Request
}

export type EmailProviderType = "email"
export type EmailProviderId = "email" | "nodemailer" | (string & {})

/**
 * Fields of an e-mail provider. Kept free of an index signature so `EmailUserConfig` keeps every
 * field typed.
 */
export interface EmailProviderFields extends CommonProviderOptions {
  /** Transport: SMTP URL or transport options (nodemailer). */
  server?: unknown
  from?: string
  /** Seconds a link stays valid. Default 10 minutes. */
  maxAge?: number
  sendVerificationRequest: (params: EmailProviderSendVerificationRequestParams) => Awaitable<void>
  generateVerificationToken?: () => Awaitable<string>
  /** Returns the normalised address, or throws on an address it refuses. */
  normalizeIdentifier?: (identifier: string) => string
  /** Secret used to hash tokens; default: the config's `secret`. */
  secret?: string
  /** An HTTP e-mail service's API key (Resend, SendGrid, ...); `setEnvDefaults` fills it from `AUTH_<ID>_KEY`. */
  apiKey?: string
}

/** An e-mail (magic link) provider (`type: "email"`). */
export interface EmailConfig extends EmailProviderFields {
  type: "email"
  options?: EmailUserConfig
  [key: string]: unknown
}
/** What a user may pass to an e-mail provider: its fields (typed) plus provider-specific extras. */
export type EmailUserConfig = Partial<EmailProviderFields> & { [key: string]: unknown }

/** A WebAuthn credential as `@simplewebauthn/server` takes it (base64url id, COSE public key). */
export interface WebAuthnCredentialInput {
  id: string
  publicKey: Uint8Array
  counter: number
  transports?: string[]
}

/**
 * The four functions of `@simplewebauthn/server` (13.x/14.x) core calls, typed by the fields core
 * passes and reads. The `Passkey` provider of `@authlib/providers` loads the real module lazily.
 */
export interface SimpleWebAuthnServer {
  generateRegistrationOptions(options: {
    rpName: string
    rpID: string
    userName: string
    userID?: Uint8Array
    userDisplayName?: string
    timeout?: number
    attestationType?: "direct" | "enterprise" | "none"
    excludeCredentials?: Array<{ id: string; transports?: string[] }>
    authenticatorSelection?: WebAuthnAuthenticatorSelection
  }): Promise<{ challenge: string } & Record<string, unknown>>
  generateAuthenticationOptions(options: {
    rpID: string
    allowCredentials?: Array<{ id: string; transports?: string[] }>
    timeout?: number
    userVerification?: "required" | "preferred" | "discouraged"
  }): Promise<{ challenge: string } & Record<string, unknown>>
  verifyRegistrationResponse(options: {
    response: any
    expectedChallenge: string
    expectedOrigin: string | string[]
    expectedRPID?: string | string[]
    requireUserVerification?: boolean
  }): Promise<{
    verified: boolean
    registrationInfo?: {
      credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] }
      credentialDeviceType: string
      credentialBackedUp: boolean
      userVerified: boolean
    }
  }>
  verifyAuthenticationResponse(options: {
    response: any
    expectedChallenge: string
    expectedOrigin: string | string[]
    expectedRPID: string | string[]
    credential: WebAuthnCredentialInput
    requireUserVerification?: boolean
  }): Promise<{
    verified: boolean
    authenticationInfo: { credentialID: string; newCounter: number; userVerified: boolean; credentialDeviceType: string; credentialBackedUp: boolean }
  }>
}

/** `authenticatorSelection` of the registration options (WebAuthn Level 3). */
export interface WebAuthnAuthenticatorSelection {
  authenticatorAttachment?: "platform" | "cross-platform"
  residentKey?: "discouraged" | "preferred" | "required"
  requireResidentKey?: boolean
  userVerification?: "required" | "preferred" | "discouraged"
}

/** The relying party: the site a passkey belongs to. */
export interface WebAuthnRelyingParty {
  /** The RP ID: a registrable domain (never a public suffix), `localhost` in development. */
  id: string
  /** Shown by the browser and the authenticator. */
  name: string
  /** Origin(s) the browser may sign for (scheme, host and port). */
  origin: string | string[]
}

/** What `getUserInfo` tells the options route about the person asking. */
export interface WebAuthnUserInfo {
  /** `email` and `name` are display hints for a new passkey; `id` is a stored user's id. */
  user: { id?: string; email?: string | null; name?: string | null }
  /** Whether `user` is a stored user (then the answer is `authenticate` with their passkeys). */
  exists: boolean
}

/**
 * A WebAuthn (passkey) provider. Experimental: requires `experimental.enableWebAuthn`. Build it
 * with `Passkey()` from `@authlib/providers/passkey`; the fields below are what core reads.
 */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: WebAuthnProviderType
  /** Loads `@simplewebauthn/server` (called once, on the first passkey request). */
  simpleWebAuthn: () => Promise<SimpleWebAuthnServer>
  /** Relying party overrides; every field defaults from the configured app URL (`url`). */
  relyingParty?: Partial<WebAuthnRelyingParty>
  /** Auth.js's spelling of `relyingParty`, accepted as an alias. */
  relayingParty?: Partial<WebAuthnRelyingParty>
  /** Computes the relying party per request (Auth.js's hook); wins over `relyingParty`. */
  getRelyingParty?: (options: { url: URL }, request: Request) => Awaitable<Partial<WebAuthnRelyingParty>>
  /**
   * Tells the options route who is asking, from the request (Auth.js's hook). Default: nobody
   * (no lookup by a typed e-mail, so the route never reveals whether an address has an account).
   */
  getUserInfo?: (options: { provider: WebAuthnConfig; adapter: Adapter }, request: { query: Readonly<Record<string, string>>; headers: Headers }) => Awaitable<WebAuthnUserInfo | null>
  /** Whether the authenticator must verify the user (PIN, biometrics). Default `"required"`. */
  userVerification?: "required" | "preferred" | "discouraged"
  /** Attestation conveyance. Default `"none"`. */
  attestationType?: "none" | "direct" | "enterprise"
  /** Milliseconds the browser gives the user. Default 300000 (the challenge's lifetime). */
  timeout?: number
  /** Authenticator selection of new passkeys. Default: resident key required, user verification as above. */
  authenticatorSelection?: WebAuthnAuthenticatorSelection
  /** Seconds a challenge lives (its cookie and its single-use record). Default 300. */
  challengeMaxAge?: number
  /**
   * Whether someone who is not signed in may create a new account by registering a passkey.
   * Default `false`. Such an account has no e-mail address (an address typed at registration is
   * unproven and is never stored); to attach one, sign in with e-mail first and add a passkey.
   */
  allowNewAccounts?: boolean
  /**
   * Whether a signed-in user may delete their last passkey when nothing else lets them sign in
   * (no other passkey, no other linked account of a configured provider, no e-mail address with an
   * e-mail provider configured). Default `false`: such a deletion is refused with passkey
   * management's `LAST_SIGN_IN_METHOD` (409), so nobody locks themselves out. Set it when
   * users have a way in that authlib cannot see (a password checked by your own `authorize` under
   * JWT sessions, account recovery by support). With several passkey providers, every one of them
   * must allow it.
   */
  allowDeletingLastPasskey?: boolean
  /** Whether a host name is a public suffix (`com`, `co.uk`, `github.io`); the preset uses the PSL. */
  isPublicSuffix?: (hostname: string) => boolean
  /** Whether the built-in sign-in page offers passkey autofill (conditional UI). Default `true`. */
  enableConditionalUI?: boolean
  [key: string]: unknown
}

/** A provider config of any type. */
export type ProviderConfig = OIDCConfig<any> | OAuth2Config<any> | EmailConfig | CredentialsConfig<any> | WebAuthnConfig | CapabilityProviderTypes[keyof CapabilityProviderTypes]

/** A provider object, or a function returning one. */
export type Provider<P extends Profile = any> = ProviderConfig | ((...args: any[]) => ProviderConfig)

/** Ids of the presets in `@authlib/providers`, plus any string (custom providers). */
export type OAuthProviderId =
  | "apple" | "auth0" | "discord" | "facebook" | "github" | "gitlab" | "google" | "keycloak" | "linkedin"
  | "microsoft-entra-id" | "oidc" | "okta" | "slack" | "twitch"
  | (string & {})

/** The user a provider produced, before it is stored. */
export type ProviderUser = User | AdapterUser
export type { Account }
