/**
 * The flow registry: provider type -> flow. Adding a sign-in method is one line here plus its
 * module; no route changes. The contract (see `flows/types.ts`):
 *
 * - `signin(req, ctx)`  POST signin/:provider, CSRF already checked. Returns an `AuthResponse`
 *   (usually a redirect) plus any check cookies. OAuth (`flows/oauth/*`): authorization URL, PKCE /
 *   state / nonce cookies bound to `ctx.provider.id`. E-mail (`flows/email.ts`): normalise the
 *   address, call `runSignInCallback(..., { email: { verificationRequest: true } })` from
 *   `sessions/issue.ts`, store the hashed token, send the mail, redirect to verify-request.
 * - `callback(req, ctx)` GET/POST callback/:provider. Returns `{ signIn: SignInResult }`, which the
 *   callback route hands to `issueSession` (signIn callback, user/account linking, jwt callback,
 *   events, session cookies, redirect), or `{ response }` for an intermediate page (the e-mail
 *   confirm page). Throw an `AuthError`: client-safe types reach the user as `?error=<type>`.
 * - `callbackMethods`, `callbackCsrf`: which methods callback/:provider accepts, and whether its
 *   POST needs the CSRF check (OAuth form_post: no, its checks bind it; credentials, e-mail: yes).
 *
 * Flows never set session cookies and never call the session strategies.
 */
import type { ProviderType } from "../providers/types.js"
import type { ProviderConfig } from "../providers/types.js"
import { credentialsFlow } from "../../capabilities/credentials/flow.js"
import { emailFlow } from "../../capabilities/email/index.js"
import { oauthFlow } from "../../capabilities/oauth/index.js"
import { webauthnFlow } from "../../capabilities/webauthn/index.js"
import type { Flow } from "./types.js"

const registry: Partial<Record<ProviderType, Flow<any>>> = {
  credentials: credentialsFlow,
  email: emailFlow,
  oauth: oauthFlow,
  oidc: oauthFlow,
  webauthn: webauthnFlow,
}

/** Whether this version of core can sign in with providers of `type`. */
export function hasFlow(type: ProviderType): boolean {
  return registry[type] !== undefined
}

/** The flow of a provider, or undefined when its type has none yet. */
export function flowFor<P extends ProviderConfig>(provider: P): Flow<P> | undefined {
  return registry[provider.type] as Flow<P> | undefined
}

export type { Flow, FlowContext, FlowOutcome, SignInResult } from "./types.js"
