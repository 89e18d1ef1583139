/**
 * Core's server functions for Qwik server code (`routeLoader$`, `routeAction$`, `server$`), every
 * one through one generic wrapper, `forQwik(name)`, over core's typed map (`serverFunctions`).
 * The wrapper runs core's function on the request as core sees it in this request (its cookies as
 * updated by earlier calls, so a session refreshed or a passkey added a moment ago counts) with
 * the configuration of `QwikAuth$`; sets the cookies core answers through Qwik's cookie API (later
 * reads in this request see the new session), also when core throws (a refused refresh token marks
 * the session); ends a completed sign-in with the redirect `signIn` ends with; and resolves core's
 * value. Errors are core's `AuthError`s as thrown (`SessionRequired`, `TwoFactorError` with its
 * `code`, `RateLimited`, ...).
 *
 * Like core's, they check no CSRF token: use them in Qwik City actions, whose same-origin check
 * protects the POST (keep `checkOrigin` on), or behind your own protection.
 */
import type { ServerFunction } from "@authlib/core"
import { callServerFunction, serverFunctions, type AnyServerFunction, type ServerFunctions } from "@authlib/core/internal"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, requireContext } from "./context.js"
import { applyCookies } from "./cookies.js"
import { redirectFromAction } from "./core-calls.js"

/** Core's server function `F` for Qwik: the request event in place of `(request, config)`, resolving core's value. */
export type QwikServerFunction<F> = F extends ServerFunction<infer A, infer T, unknown> ? (ev: RequestEventCommon, ...args: A) => Promise<T> : never

/**
 * Core's server function `name` for Qwik. It reads core's map when called, not when the module
 * loads: an app's browser build keeps none of it unless it calls one (the call is pure).
 */
export function forQwik<K extends keyof ServerFunctions>(name: K): QwikServerFunction<ServerFunctions[K]> {
  const call = async (ev: RequestEventCommon, ...args: never[]): Promise<unknown> => {
    const ctx = await requireContext(ev, name)
    const fn: AnyServerFunction = serverFunctions[name]
    return callServerFunction(fn, internalRequest(ev, ctx, "session"), ctx.config, args, {
      setCookies(cookies) {
        applyCookies(ev, cookies)
        // A later session read in this request must see the new session, not a cached result.
        ctx.session = undefined
      },
      redirect: (url) => redirectFromAction(ev, ctx, url),
    })
  }
  return Object.defineProperty(call, "name", { value: name }) as unknown as QwikServerFunction<ServerFunctions[K]>
}

/** The signed-in user's passkeys (id, name, created, last used, backed up; never a key). */
export const listPasskeys = /*#__PURE__*/ forQwik("listPasskeys")
/** Renames one of the signed-in user's passkeys (at most 64 characters); resolves it renamed. */
export const renamePasskey = /*#__PURE__*/ forQwik("renamePasskey")
/** Deletes one of the signed-in user's passkeys (refused when it is their last way to sign in). */
export const deletePasskey = /*#__PURE__*/ forQwik("deletePasskey")

/**
 * A valid access token of the signed-in user for OAuth/OIDC provider `providerId`, refreshed first
 * when it expires within `minValidity` seconds (default 60). It stays on the server: return it to
 * the browser only if you mean to. Throws `SessionRequired` or `RefreshTokenError`.
 */
export const getAccessToken = /*#__PURE__*/ forQwik("getAccessToken")

/** The user's live sessions: opaque `id`, `expires`, and `current` for this request's own (database sessions). */
export const listSessions = /*#__PURE__*/ forQwik("listSessions")
/** Ends one of the user's sessions (`SessionManagementError` / `SESSION_UNKNOWN` for any other id). */
export const revokeSession = /*#__PURE__*/ forQwik("revokeSession")
/** Ends every session of the user but this one; resolves how many stored sessions ended (`null` for JWT sessions, whose cookie is re-issued). */
export const revokeOtherSessions = /*#__PURE__*/ forQwik("revokeOtherSessions")
/** "Sign out everywhere": ends every session of the user, this one included (its cookie cleared). Resolves as `revokeOtherSessions`. */
export const signOutEverywhere = /*#__PURE__*/ forQwik("signOutEverywhere")

/** The accounts linked to the user: `{ provider, name, type, unlinkable }`, never a token. */
export const listLinkedAccounts = /*#__PURE__*/ forQwik("listLinkedAccounts")
/** The user's ways in, each with how it is removed: the same list core's last-way-in rule counts. */
export const listSignInMethods = /*#__PURE__*/ forQwik("listSignInMethods")
/** Unlinks the user's accounts of `provider` (`AccountManagementError` / `LAST_SIGN_IN_METHOD` for the last way in). */
export const unlinkLinkedAccount = /*#__PURE__*/ forQwik("unlinkLinkedAccount")

/** Whether the signed-in user has two factors on, and how many backup codes are left. */
export const getTwoFactorStatus = /*#__PURE__*/ forQwik("getTwoFactorStatus")
/** Starts enrolling an authenticator app: `secret`, `uri` and `qrSvg` (safe to render); nothing is on until confirmed. */
export const startTotpEnrollment = /*#__PURE__*/ forQwik("startTotpEnrollment")
/** Turns two factors on with a first code; resolves the 10 backup codes (show them once). The session is re-issued with both factors. */
export const confirmTotpEnrollment = /*#__PURE__*/ forQwik("confirmTotpEnrollment")
/** Turns two-factor sign-in off, with a current code (from the app, or a backup code). */
export const disableTwoFactorSignIn = /*#__PURE__*/ forQwik("disableTwoFactorSignIn")
/** Replaces the backup codes with 10 new ones (the old ones stop working), with a current code. */
export const regenerateTwoFactorBackupCodes = /*#__PURE__*/ forQwik("regenerateTwoFactorBackupCodes")
/**
 * Asserts the signed-in user authenticated at most `maxAge` seconds ago and, with `secondFactor:
 * true`, with a second factor; throws `ReauthenticationRequired` (then call `stepUpTwoFactor`).
 */
export const requireRecentAuthentication = /*#__PURE__*/ forQwik("requireRecentAuthentication")
/** What finishes this request's pending sign-in (`accepts`: `"code"`, `"passkey"`, `"enrol"`), or `null` when none is pending. */
export const getPendingTwoFactor = /*#__PURE__*/ forQwik("getPendingTwoFactor")
/**
 * Completes this request's pending sign-in with a code, for the app's own `pages.twoFactor` page:
 * sets the session and throws the redirect to the sign-in's callback URL, as `signIn` does.
 */
export const completeTwoFactorSignIn = /*#__PURE__*/ forQwik("completeTwoFactorSignIn")
/** Completes this request's pending sign-in with a passkey assertion (`data`); ends as `completeTwoFactorSignIn`. */
export const completeTwoFactorSignInWithPasskey = /*#__PURE__*/ forQwik("completeTwoFactorSignInWithPasskey")
/** Step-up: a code or a passkey proves a second factor again; the session is re-issued. Resolves the new `authTime`. */
export const stepUpTwoFactor = /*#__PURE__*/ forQwik("stepUpTwoFactor")

/** Creates an organization (`{ name, slug? }`) with the signed-in user as owner; resolves `{ id, name, slug, createdAt }`. */
export const createOrganization = /*#__PURE__*/ forQwik("createOrganization")
/** The signed-in user's organizations, each with their `role`. */
export const listOrganizations = /*#__PURE__*/ forQwik("listOrganizations")
/** One organization the user is a member of, with their `role` (`OrganizationError` / `ORGANIZATION_UNKNOWN` otherwise). */
export const getOrganization = /*#__PURE__*/ forQwik("getOrganization")
/** Renames an organization or changes its slug (`organization:update`). */
export const updateOrganization = /*#__PURE__*/ forQwik("updateOrganization")
/** Deletes an organization with its members and invitations (`organization:delete`, after a recent sign-in). */
export const deleteOrganization = /*#__PURE__*/ forQwik("deleteOrganization")
/** Invites an address with a role (`member:invite`); core hands `sendInvitation` the single-use link. */
export const inviteMember = /*#__PURE__*/ forQwik("inviteMember")
/** An organization's invitations with their status (`pending`, `accepted`, `revoked`, `expired`). */
export const listInvitations = /*#__PURE__*/ forQwik("listInvitations")
/** Revokes a pending invitation (`invitation:revoke`). */
export const revokeInvitation = /*#__PURE__*/ forQwik("revokeInvitation")
/** Accepts an invitation by its token, for the signed-in user whose verified address it was sent to. */
export const acceptInvitation = /*#__PURE__*/ forQwik("acceptInvitation")
/** An organization's members: `{ userId, name, email, role, joinedAt }`. */
export const listMembers = /*#__PURE__*/ forQwik("listMembers")
/** Sets a member's role (`member:update-role`; never a role with permissions the user lacks; only owners act on owners). */
export const updateMemberRole = /*#__PURE__*/ forQwik("updateMemberRole")
/** Removes a member (`member:remove`; only owners remove owners; never the last owner). */
export const removeMember = /*#__PURE__*/ forQwik("removeMember")
/** The signed-in user leaves an organization (never its last owner). */
export const leaveOrganization = /*#__PURE__*/ forQwik("leaveOrganization")
/** Makes one of the user's organizations active (`null`: none); the cookie is set here, and the session carries `activeOrganization`. */
export const setActiveOrganization = /*#__PURE__*/ forQwik("setActiveOrganization")
/** Whether the user's role in an organization holds a permission (built-in or the app's), read from the store now. */
export const hasPermission = /*#__PURE__*/ forQwik("hasPermission")
/** As `hasPermission`, throwing `OrganizationError` / `FORBIDDEN` when the role does not hold it. */
export const requirePermission = /*#__PURE__*/ forQwik("requirePermission")

/** Enterprise SSO: creates a SAML or OIDC connection for an organization (`organization:update`, after a recent sign-in); never answers a secret. */
export const createSsoConnection = /*#__PURE__*/ forQwik("createSsoConnection")
/** Enterprise SSO: an organization's connections. */
export const listSsoConnections = /*#__PURE__*/ forQwik("listSsoConnections")
/** Enterprise SSO: changes a connection (default role, IdP metadata or certificates, client secret). */
export const updateSsoConnection = /*#__PURE__*/ forQwik("updateSsoConnection")
/** Enterprise SSO: deletes a connection and its domains. */
export const deleteSsoConnection = /*#__PURE__*/ forQwik("deleteSsoConnection")
/** Enterprise SSO: adds a domain to a connection; resolves the TXT record to publish. */
export const addSsoDomain = /*#__PURE__*/ forQwik("addSsoDomain")
/** Enterprise SSO: checks a domain's TXT record and marks it verified (one organization at a time). */
export const verifySsoDomain = /*#__PURE__*/ forQwik("verifySsoDomain")
