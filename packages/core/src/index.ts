/**
 * `@authlib/core`: Web-standard authentication. `Auth(request, config)` answers every request under
 * `basePath` (default `/auth`) with a `Response`:
 *
 * | Route | Method | Answer |
 * |---|---|---|
 * | `providers` | GET | `{ [id]: { id, name, type, signinUrl, callbackUrl } }` |
 * | `csrf` | GET | `{ csrfToken }` (+ CSRF cookie when new) |
 * | `session` | GET / POST | the session or `null`; POST updates it (CSRF) |
 * | `signin` | GET | sign-in page |
 * | `signin/:provider` | POST | starts the provider's flow (CSRF) |
 * | `callback/:provider` | GET / POST | finishes it, sets the session, redirects |
 * | `signout` | GET / POST | confirm page / signs out (CSRF) |
 * | `verify-request`, `error` | GET | pages |
 * | `webauthn-options/:provider` | GET | passkey options (+ challenge cookie) |
 * | `passkeys` | GET / POST | the signed-in user's passkeys / rename or delete one (CSRF) |
 * | `sessions` | GET / POST | the signed-in user's sessions / end one or the others (CSRF; database sessions) |
 * | `organizations` | GET / POST | the signed-in user's organizations / create, invite, change roles, set the active one... (CSRF) |
 *
 * @example
 * ```ts
 * import { Auth, setEnvDefaults } from "@authlib/core"
 * const config = { providers: [credentials], trustHost: true }
 * setEnvDefaults(process.env, config)
 * export default { fetch: (request: Request) => Auth(request, config) }
 * ```
 */
import { resolveConfig } from "./kernel/config/resolve.js"
import { configured, forApp } from "./registry.js"
import { dispatch } from "./kernel/http/dispatch.js"
import { answerResponse, partsOf } from "./kernel/http/answer.js"
import type { AuthResponse } from "./kernel/types/http.js"
import type { raw } from "./kernel/types/raw.js"
import type { AuthConfig, AuthRequestOptions } from "./kernel/types/config.js"
import * as sessionManagementFunctions from "./capabilities/session-management/functions.js"
import * as twoFactorUnlock from "./capabilities/two-factor/unlock.js"
import { serverFunctions } from "./server-functions.js"

/** What `Auth` resolves to with the `raw` marker: the internal result, cookies not yet serialised. */
export type AuthResult = AuthResponse

/**
 * Handles one request. `options.clientAddress` (the peer address) enables per-client rate limits.
 * Never throws for bad input: malformed requests get a 4xx JSON answer and
 * other errors a redirect to the error page (or a JSON error on JSON routes).
 *
 * With `raw` in the config (server-side bindings), resolves the internal `AuthResult` instead and
 * throws `AuthError`s (such as `CredentialsSignin`) to the caller.
 */
export function Auth(request: Request, config: AuthConfig & { raw: typeof raw }, options?: AuthRequestOptions): Promise<AuthResult>
export function Auth(request: Request, config: AuthConfig, options?: AuthRequestOptions): Promise<Response>
export async function Auth(request: Request, config: AuthConfig, options?: AuthRequestOptions): Promise<Response | AuthResult> {
  const resolved = resolveConfig(configured(config))
  const result = await dispatch(request, resolved, options?.clientAddress)
  if (resolved.raw) return result
  // Dispatched here rather than through `answerParts`: one await less on every request. Only a value
  // that cannot be sent (a cookie option the platform rejects) makes either step answer a configuration error.
  return answerResponse(partsOf(request, result, resolved.logger), resolved.logger)
}

export type {
  Account, AuthConfig, AuthRequestOptions, AuthorizationDetails, Awaitable, CallbacksOptions,
  CookieOption, CookiesOptions, DefaultSession, EventCallbacks, JWT, JWTOptions, JsonValue,
  LoggerInstance, PagesOptions, Profile, Session, SessionOptions, Theme, User
} from "./kernel/types/config.js"
export type { TwoFactorOptions } from "./capabilities/two-factor/options.js"
export type {
  Adapter, AdapterAccount, AdapterAccountType, AdapterAuthenticator, AdapterSession,
  AdapterUser, SessionMetadata, VerificationToken
} from "./kernel/types/adapters.js"
export type { AdapterTwoFactor } from "./capabilities/two-factor/adapter.js"
export type { AdapterSsoConnection, AdapterSsoDomain, SsoConnectionPatch } from "./capabilities/sso/adapter.js"
export type { AdapterOrganization, AdapterOrganizationInvitation, AdapterOrganizationMember, AdapterOrganizationMemberWithUser, AdapterOrganizationWithRole } from "./capabilities/organizations/adapter.js"
export type {
  AccountCallback, AppProvider, AuthorizationEndpointHandler, CapabilityProviderTypes, CommonProviderOptions,
  CredentialInput, CredentialsConfig, CredentialsProviderId, EmailConfig, EmailProviderFields,
  EmailProviderId, EmailProviderSendVerificationRequestParams, EmailProviderType, EmailUserConfig,
  EndpointHandler, OAuth2Config, OAuthChecks, OAuthClientOverrides, OAuthConfig, OAuthConfigInternal,
  OAuthProviderButtonStyles, OAuthProviderFields, OAuthProviderId, OAuthProviderType, OAuthUserConfig,
  OIDCChecks, OIDCConfig, OIDCUserConfig, ProfileCallback, Provider, ProviderConfig, ProviderType,
  ProviderUser, SimpleWebAuthnServer, TokenEndpointHandler, TokenSet, UserinfoEndpointHandler,
  WebAuthnAuthenticatorSelection, WebAuthnConfig, WebAuthnCredentialInput, WebAuthnProviderType,
  WebAuthnRelyingParty, WebAuthnUserInfo
} from "./kernel/types/providers.js"
export {
  APP_DEFINED_CODES, AccessDenied, AdapterError, AuthError, CallbackError,
  CallbackRouteError, CataloguedError, Configuration, CredentialsSignin, DuplicateProviderId,
  EmailSignInError, EventError, ExperimentalFeatureNotEnabled, InvalidCallbackUrl, InvalidCheck,
  InvalidEmailAddress, InvalidEndpoints, InvalidProvider, InvalidRequest, JWTSessionError,
  MethodNotAllowed, MissingAdapter, MissingAdapterMethods, MissingAuthorize, MissingCSRF, MissingSalt,
  MissingSecret, OAuthAccountNotLinked, OAuthCallbackCancelled, OAuthCallbackError,
  OAuthProfileParseError, OAuthSignInError, RateLimited, ReauthenticationRequired, RefreshTokenError,
  SessionRequired, SessionTokenError, SignInError, UnknownAction, UntrustedHost,
  Verification, isClientSafe
} from "./kernel/errors/errors.js"
export { TwoFactorError } from "./capabilities/two-factor/errors.js"
export { OrganizationError } from "./capabilities/organizations/errors.js"
export { SsoError, SsoSignInError } from "./capabilities/sso/errors.js"
export { WebAuthnVerificationError } from "./capabilities/webauthn/errors.js"
export { SessionManagementError } from "./capabilities/session-management/errors.js"
export { PasskeyManagementError } from "./capabilities/passkey-management/errors.js"
export { AccountManagementError } from "./capabilities/linked-accounts/errors.js"
export { ADAPTER_PORTS, DEFAULT_RATE_LIMITS, ERROR_CODES } from "./registry.js"
export type {
  AnyAuthError, AuthErrorOptions, CallbackStep, CataloguedErrorOptions, CataloguedType, CheckName,
  ErrorCause, ErrorCode, ErrorType
} from "./kernel/errors/errors.js"
/** The signed-in user's passkeys (`PasskeyInfo[]`: name, created, last used, device type; never the key). `SessionRequired` without a session. */
export const listPasskeys = serverFunctions.listPasskeys
/** Renames one of the signed-in user's passkeys (`{ id, name }`) and resolves it as renamed. */
export const renamePasskey = serverFunctions.renamePasskey
/** Deletes one of the signed-in user's passkeys (`{ id }`) unless it is their last way in (`LAST_SIGN_IN_METHOD`); with two factors on, after a recent step-up. */
export const deletePasskey = serverFunctions.deletePasskey
/** A valid access token of the signed-in user for an OAuth/OIDC provider, refreshed when it is about to expire; `setCookie` when the session was re-issued. */
export const getAccessToken = serverFunctions.getAccessToken
/** The signed-in user's live sessions, most recently used first, the request's own marked `current` (database sessions). */
export const listSessions = serverFunctions.listSessions
/** Ends one of the signed-in user's sessions (`{ id }`; database sessions). */
export const revokeSession = serverFunctions.revokeSession
/** Ends every session of the signed-in user but the request's own; `setCookie` when the request's own was re-issued. */
export const revokeOtherSessions = serverFunctions.revokeOtherSessions
/** Ends every session of the signed-in user, the request's own included (`setCookie` clears its cookie). */
export const signOutEverywhere = serverFunctions.signOutEverywhere
/** For the app (no request): ends every session of `userId` (after a password change, a disable or a ban); resolves how many stored sessions ended. */
export const revokeUserSessions = forApp(sessionManagementFunctions).revokeUserSessions
export type { SessionInfo, SessionRevocation } from "./capabilities/session-management/functions.js"
/** The sign-in methods linked to the signed-in user, one entry per provider and type. */
export const listLinkedAccounts = serverFunctions.listLinkedAccounts
/** The signed-in user's ways in (IdP accounts, a password, passkeys, e-mail links), each with whether and how it can be removed. */
export const listSignInMethods = serverFunctions.listSignInMethods
/** Unlinks the signed-in user's IdP accounts of a provider unless no other way in would remain (`LAST_SIGN_IN_METHOD`); with two factors on, after a recent step-up. */
export const unlinkLinkedAccount = serverFunctions.unlinkLinkedAccount
export type { LinkedAccount } from "./capabilities/linked-accounts/functions.js"
export type { SignInMethod } from "./capabilities/linked-accounts/ways-in.js"
export type { GetAccessTokenOptions, ProviderAccessToken } from "./capabilities/provider-tokens/functions.js"
export { MAX_PASSKEY_NAME_LENGTH } from "./capabilities/passkey-management/info.js"
export type { PasskeyInfo } from "./capabilities/passkey-management/info.js"
/** Two-factor: enables TOTP with a first code from the app; resolves the backup codes (shown once) and `setCookie` (the session, now with both factors). */
export const confirmTotpEnrollment = serverFunctions.confirmTotpEnrollment
/** Two-factor: turns two factors off for the signed-in user, with a current TOTP or backup code. */
export const disableTwoFactorSignIn = serverFunctions.disableTwoFactorSignIn
/** Two-factor: whether the signed-in user has two factors on, and how many backup codes are left. */
export const getTwoFactorStatus = serverFunctions.getTwoFactorStatus
/** Two-factor: replaces the signed-in user's backup codes (the old ones stop working), with a current code. */
export const regenerateTwoFactorBackupCodes = serverFunctions.regenerateTwoFactorBackupCodes
/** Two-factor: starts enrolling a TOTP app for the signed-in user (secret, `otpauth://` URI, QR code); `confirmTotpEnrollment` enables it. */
export const startTotpEnrollment = serverFunctions.startTotpEnrollment
export type { TotpEnrollment, TwoFactorStatus } from "./capabilities/two-factor/manage.js"
/** Two-factor, for the app (no request): unlocks the TOTP codes of `userId` after too many wrong ones; resolves whether two factors are on. */
export const unlockTwoFactor = forApp(twoFactorUnlock).unlockTwoFactor
export type { TwoFactorLockedMessage } from "./capabilities/two-factor/events.js"
/** Two-factor step-up gate: asserts the signed-in user authenticated within `maxAge` seconds (and, with `secondFactor`, with two factors), else `ReauthenticationRequired`. */
export const requireRecentAuthentication = serverFunctions.requireRecentAuthentication
export type { AuthenticationInfo, RecentAuthentication } from "./capabilities/two-factor/recent-authentication.js"
export type { StepUpResult } from "./capabilities/two-factor/step-up.js"
/** Two-factor: finishes the request's pending sign-in with a TOTP or backup code, for an app's own `pages.twoFactor` page; `setCookie` carries the session. */
export const completeTwoFactorSignIn = serverFunctions.completeTwoFactorSignIn
/** Two-factor: finishes the request's pending sign-in with a passkey (never the passkey that began it); `setCookie` carries the session. */
export const completeTwoFactorSignInWithPasskey = serverFunctions.completeTwoFactorSignInWithPasskey
/** Two-factor step-up: the signed-in user proves a second factor again (a code, or a passkey's `{ data }`); `setCookie` carries the session re-issued as authenticated now. */
export const stepUpTwoFactor = serverFunctions.stepUpTwoFactor
export type { CompletedTwoFactorSignIn, TwoFactorPasskeyInput } from "./capabilities/two-factor/functions-session.js"
/** Two-factor: what finishes the request's pending sign-in (`code`, `passkey` or `enrol`), or `null` when there is none. */
export const getPendingTwoFactor = serverFunctions.getPendingTwoFactor
/** Organizations: creates an organization (`{ name, slug? }`) with the signed-in user as owner; resolves `{ id, name, slug, createdAt }`. */
export const createOrganization = serverFunctions.createOrganization
/** Organizations: the signed-in user's organizations, each with their `role`. */
export const listOrganizations = serverFunctions.listOrganizations
/** Organizations: one organization the signed-in user is a member of, with their `role` (`ORGANIZATION_UNKNOWN` otherwise). */
export const getOrganization = serverFunctions.getOrganization
/** Organizations: renames an organization or changes its slug (`organization:update`). */
export const updateOrganization = serverFunctions.updateOrganization
/** Organizations: deletes an organization with its members and invitations (`organization:delete`, fresh authentication). */
export const deleteOrganization = serverFunctions.deleteOrganization
/** Organizations: invites an address with a role (`member:invite`) and hands `sendInvitation` the single-use link. */
export const inviteMember = serverFunctions.inviteMember
/** Organizations: an organization's invitations with their status (`pending`, `accepted`, `revoked`, `expired`). */
export const listInvitations = serverFunctions.listInvitations
/** Organizations: revokes a pending invitation (`invitation:revoke`). */
export const revokeInvitation = serverFunctions.revokeInvitation
/** Organizations: accepts an invitation by its token for the signed-in user whose verified address it was sent to. */
export const acceptInvitation = serverFunctions.acceptInvitation
/** Organizations: an organization's members with names, addresses and roles. */
export const listMembers = serverFunctions.listMembers
/** Organizations: sets a member's role (`member:update-role`; no role with permissions the caller lacks; only owners act on owners). */
export const updateMemberRole = serverFunctions.updateMemberRole
/** Organizations: removes a member (`member:remove`; only owners remove owners; never the last owner). */
export const removeMember = serverFunctions.removeMember
/** Organizations: the signed-in user leaves an organization (never its last owner). */
export const leaveOrganization = serverFunctions.leaveOrganization
/** Organizations: makes one of the signed-in user's organizations active (or none); the session carries `activeOrganization`; `setCookie` sets it. */
export const setActiveOrganization = serverFunctions.setActiveOrganization
/** Organizations: whether the signed-in user's role in an organization holds a permission (built-in or the app's), read from the store now. */
export const hasPermission = serverFunctions.hasPermission
/** Organizations: as `hasPermission`, throwing `OrganizationError` `FORBIDDEN` when the role does not hold it. */
export const requirePermission = serverFunctions.requirePermission
export type { Organization, OrganizationMember, OrganizationMembership, OrganizationWithRole } from "./capabilities/organizations/manage.js"
/** Enterprise SSO: creates an SAML or OIDC connection for an organization (`organization:update`, fresh authentication); never answers a secret. */
export const createSsoConnection = serverFunctions.createSsoConnection
/** Enterprise SSO: an organization's connections. */
export const listSsoConnections = serverFunctions.listSsoConnections
/** Enterprise SSO: changes a connection (default role, IdP metadata or certificates, client secret). */
export const updateSsoConnection = serverFunctions.updateSsoConnection
/** Enterprise SSO: deletes a connection and its domains. */
export const deleteSsoConnection = serverFunctions.deleteSsoConnection
/** Enterprise SSO: adds a domain to a connection; resolves the TXT record to publish. */
export const addSsoDomain = serverFunctions.addSsoDomain
/** Enterprise SSO: checks a domain's TXT record and marks it verified (one organization at a time). */
export const verifySsoDomain = serverFunctions.verifySsoDomain
export type { SsoConnection, SsoConnectionInput, SsoConnectionUpdate, SsoDomain } from "./capabilities/sso/manage.js"
export type { SsoOptions, ResolveTxt } from "./capabilities/sso/options.js"
export type { SamlEngine, SsoConfig } from "./capabilities/sso/provider.js"
export type { AcceptedInvitation, OrganizationInvitation, OrganizationInvitationInfo } from "./capabilities/organizations/invitations.js"
export type { ActiveOrganizationResult } from "./capabilities/organizations/functions.js"
export type { ActiveOrganization } from "./capabilities/organizations/active.js"
export type { InvitationMessage, OrganizationsOptions } from "./capabilities/organizations/options.js"
export type { OrganizationsRateLimitOptions } from "./capabilities/organizations/rate-limits.js"
export type { InvitationSentMessage, MemberAddedMessage, MemberRemovedMessage, MemberRoleChangedMessage, OrganizationCreatedMessage } from "./capabilities/organizations/events.js"
export { BUILT_IN_PERMISSIONS } from "./capabilities/organizations/roles.js"
export type { ServerFunction, ServerResult } from "./kernel/run/server-function.js"
export type { PendingTwoFactorInfo } from "./capabilities/two-factor/pending-info.js"
export type { RateLimitHit, RateLimitStep, RateLimitStore } from "./kernel/types/rate-limit-store.js"
export { MemoryRateLimitStore, DEFAULT_MEMORY_STORE_KEYS } from "./kernel/rate-limit/memory-store.js"
export type { MemoryRateLimitStoreOptions } from "./kernel/rate-limit/memory-store.js"
export { DEFAULT_MAX_LIVE_TOKENS } from "./capabilities/email/rate-limits.js"
export type { EmailRateLimitOptions } from "./capabilities/email/rate-limits.js"
export type { CredentialsRateLimitOptions } from "./capabilities/credentials/rate-limits.js"
export type { OAuthRateLimitOptions } from "./capabilities/oauth/rate-limits.js"
export type { PasskeyRateLimitOptions } from "./capabilities/webauthn/rate-limits.js"
export type { RateLimitGroup, RateLimitOptions, RateLimitRule, RateLimitRules } from "./kernel/rate-limit/options.js"
export type { TrustedProxies } from "./kernel/rate-limit/client-address.js"
export { skipCSRFCheck } from "./kernel/types/skip-csrf.js"
export { raw } from "./kernel/types/raw.js"
export { setEnvDefaults } from "./registry.js"
export type { PortName as AdapterPortName } from "./kernel/ports/ports.js"
export type { EnvSource } from "./kernel/config/env.js"
export type { Cookie } from "./kernel/cookies/serialize.js"
export { DEFAULT_EMAIL_MAX_AGE, MAX_ADDRESS_LENGTH, MAX_LOCAL_PART_LENGTH, normalizeEmailAddress } from "./capabilities/email/index.js"
export type { NormalizeEmailOptions } from "./capabilities/email/index.js"
export { allowInsecureOAuthRequests } from "./capabilities/oauth/insecure.js"
export { MAX_SESSION_TOKEN_LENGTH } from "./kernel/sessions/jwt-strategy.js"
export { encode, decode, getToken } from "@authlib/jwt"
