/**
 * `@authlib/qwik`: authlib for Qwik City. One plugin file adds sign-in, sessions and sign-out.
 * Qwik also bundles the configuration function for the browser, so server-only code (database,
 * password checks) loads behind `isServer`, which browser builds drop:
 *
 * @example
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { QwikAuth$ } from "@authlib/qwik"
 * import { isServer } from "@builder.io/qwik/build"
 *
 * export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(async () => {
 *   if (!isServer) throw new Error("the auth configuration is server-only")
 *   return (await import("~/server/auth")).authConfig
 * })
 * ```
 */
import { implicit$FirstArg, type QRL } from "@builder.io/qwik"
import { isServer } from "@builder.io/qwik/build"
import { routeLoader$ } from "@builder.io/qwik-city"
import { createUseSignIn, createUseSignOut, createUseTwoFactorSignIn } from "./actions.js"
import { authContext } from "./context.js"
import type { QwikAuthConfigFn } from "./env.js"
import { createOnRequest } from "./on-request.js"
import { sessionOf } from "./session-loader.js"

/**
 * The QRL form of `QwikAuth$` (what the optimizer produces from `QwikAuth$(fn)`).
 *
 * Returns:
 * - `onRequest`: export it from `src/routes/plugin@auth.ts`. Requests under `basePath`
 *   (default `/auth`) are answered by core; for every other request the session becomes readable
 *   by loaders, lazily (read on first use, in-process, once per request).
 * - `useSession`: route loader of the `Session`, or `null` when signed out.
 * - `useSignIn`, `useSignOut`: global actions (see `SignInInput`, `SignOutInput`).
 * - `useTwoFactorSignIn`: global action for an app's own `pages.twoFactor` page, taking `code`
 *   (or a passkey's `data`): completes the pending sign-in (see `completeTwoFactorSignIn`).
 */
export function QwikAuthQrl(configQrl: QRL<QwikAuthConfigFn>) {
  const useSession = routeLoader$(async (ev) => {
    const { data } = await sessionOf(ev, await authContext(ev, configQrl))
    return data
  })
  return {
    // Browser builds never run a plugin's onRequest: the constant `isServer` lets them drop core.
    onRequest: isServer ? createOnRequest(configQrl) : async () => {},
    useSession,
    useSignIn: createUseSignIn(configQrl),
    useSignOut: createUseSignOut(configQrl),
    useTwoFactorSignIn: createUseTwoFactorSignIn(configQrl),
  }
}

/**
 * Sets authlib up for a Qwik City app. The argument is a function of the request event returning
 * the configuration (`QwikAuthConfig`: core's `AuthConfig` without `raw`); it runs once per
 * request, after which `setEnvDefaults` fills what it left unset from `ev.env`.
 */
export const QwikAuth$ = /*#__PURE__*/ implicit$FirstArg(QwikAuthQrl)

export { getSession } from "./session-loader.js"
export { signIn } from "./sign-in.js"
export { signOut } from "./sign-out.js"
// Core's server functions, each through the one generic wrapper (a test fails when one is missing here).
export {
  listPasskeys, renamePasskey, deletePasskey, getAccessToken, listSessions, revokeSession, revokeOtherSessions, signOutEverywhere,
  listLinkedAccounts, listSignInMethods, unlinkLinkedAccount, getTwoFactorStatus, startTotpEnrollment, confirmTotpEnrollment,
  disableTwoFactorSignIn, regenerateTwoFactorBackupCodes, requireRecentAuthentication, getPendingTwoFactor, completeTwoFactorSignIn,
  completeTwoFactorSignInWithPasskey, stepUpTwoFactor, createOrganization, listOrganizations, getOrganization, updateOrganization,
  deleteOrganization, inviteMember, listInvitations, revokeInvitation, acceptInvitation, listMembers, updateMemberRole, removeMember,
  leaveOrganization, setActiveOrganization, hasPermission, requirePermission, createSsoConnection, listSsoConnections, updateSsoConnection,
  deleteSsoConnection, addSsoDomain, verifySsoDomain,
} from "./server-functions.js"
export { protectRoute } from "./protect.js"
export type { ProtectRouteOptions } from "./protect.js"
export { setEnvDefaults } from "./env.js"
export type { QwikAuthConfig, QwikAuthConfigFn } from "./env.js"
export type { GetSessionResult, SessionResult, SignInInput, SignOutInput } from "./types.js"
export {
  AuthError,
  CredentialsSignin,
  AccessDenied,
  Configuration,
  MissingCSRF,
  Verification,
  OAuthAccountNotLinked,
  UntrustedHost,
  SessionRequired,
  PasskeyManagementError,
  WebAuthnVerificationError,
  RateLimited,
  RefreshTokenError,
  SessionManagementError,
  AccountManagementError,
  TwoFactorError,
  ReauthenticationRequired,
  OrganizationError,
} from "@authlib/core"
export { rateLimitedMessage } from "./actions.js"
export type {
  AnyAuthError,
  ErrorType,
  Session,
  DefaultSession,
  User,
  Account,
  Profile,
  JWT,
  Provider,
  AdapterUser,
  AdapterSession,
  PasskeyInfo,
  GetAccessTokenOptions,
  ProviderAccessToken,
  SessionInfo,
  LinkedAccount,
  SignInMethod,
  TotpEnrollment,
  TwoFactorStatus,
  PendingTwoFactorInfo,
  AuthenticationInfo,
  RecentAuthentication,
  StepUpResult,
  Organization,
  OrganizationWithRole,
  OrganizationMember,
  OrganizationMembership,
  OrganizationInvitation,
  OrganizationInvitationInfo,
  AcceptedInvitation,
  ActiveOrganization,
} from "@authlib/core"
