/**
 * `@authlib/nextjs`: authlib for Next.js (App Router; 15.5 and 16), shaped as Auth.js v5's
 * `next-auth`, so an app moves by changing its imports:
 *
 * ```ts
 * // auth.ts
 * import NextAuth from "@authlib/nextjs"
 * export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth(config)
 * ```
 *
 * The browser side is `@authlib/nextjs/react`; the Pages Router's `getServerSession` is
 * `@authlib/nextjs/pages`.
 * @module
 */
import { NextAuth } from "./next-auth.js"

export default NextAuth
export { NextAuth }
export type { AuthFunction, NextAuthResult, ProxyFunction } from "./next-auth.js"
export type { AuthorizedCallback, AuthorizedParams, NextAuthConfig, NextAuthConfigInput } from "./config.js"
export type { AuthHandler, NextAuthRequest } from "./proxy.js"
export type { AppRouteHandler, AuthHandlers } from "./handlers.js"
export type { SignInAuthorizationParams, SignInOptions } from "./sign-in.js"
export type { SignOutOptions } from "./sign-out.js"
export type { NextServerFunction, NextServerFunctions } from "./server-functions.js"
export {
  AuthError,
  CredentialsSignin,
  AccessDenied,
  Configuration,
  MissingCSRF,
  Verification,
  OAuthAccountNotLinked,
  OAuthCallbackError,
  OAuthSignInError,
  CallbackRouteError,
  InvalidCallbackUrl,
  InvalidProvider,
  InvalidRequest,
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
  setEnvDefaults,
} from "@authlib/core"
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
} from "@authlib/core"
