/**
 * GET webauthn-options/:provider: the options for the browser's `navigator.credentials.create()`
 * (`register`) or `.get()` (`authenticate`), in Auth.js's wire format
 * `{ action, options }`, with the challenge cookie. The action is `?action=` or inferred:
 *
 * | asked | signed in | not signed in |
 * | --- | --- | --- |
 * | `authenticate` | authenticate | authenticate (discoverable; the user's passkeys when `getUserInfo` names a stored user) |
 * | `register` | a passkey for the signed-in user | a new account if `allowNewAccounts`, else refused (`REGISTRATION_REQUIRES_SESSION`) |
 * | nothing | refused (`ACTION_REQUIRED`, as in Auth.js) | `getUserInfo` names a stored user: authenticate; a new one and `allowNewAccounts`: register; else authenticate |
 */
import { passkeyStore } from "./store.js"
import type { AdapterUser } from "../../kernel/types/adapters.js"
import type { ErrorCode } from "../../kernel/errors/errors.js"
import { WebAuthnVerificationError } from "./errors.js"
import type { AuthRequest, AuthResponse } from "../../kernel/types/http.js"
import type { HeldSignIn } from "../../kernel/types/capability.js"
import type { WebAuthnConfig, WebAuthnUserInfo } from "../../kernel/types/providers.js"
import { runUserCode } from "../../kernel/user-code/run.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"
import { challengeMaxAge, issueChallenge, type Challenge, type WebAuthnAction } from "./challenge.js"
import { storedIdToBase64url, transportsOf } from "./encoding.js"
import { cleanPasskeyName } from "./names.js"
import { relyingPartyOf } from "./relying-party.js"
import { webAuthnServer } from "./server.js"


const refuse = (ctx: FlowContext<WebAuthnConfig>, code: ErrorCode<"WebAuthnVerificationError">, message: string) =>
  new WebAuthnVerificationError(message, { code, cause: { provider: ctx.provider.id } })

async function userInfo(req: AuthRequest, ctx: FlowContext<WebAuthnConfig>): Promise<WebAuthnUserInfo | null> {
  const hook = ctx.provider.getUserInfo
  if (!hook) return null
  const info = await runUserCode("provider", `${ctx.provider.id}.getUserInfo`, () => hook({ provider: ctx.provider, adapter: passkeyStore(ctx) }, { query: req.query, headers: req.headers }))
  return info && typeof info === "object" && info.user && typeof info.user === "object" ? info : null
}

type Plan = { action: "authenticate"; userId?: string } | { action: "register"; user?: AdapterUser; name?: string }

async function plan(req: AuthRequest, ctx: FlowContext<WebAuthnConfig>, signedInUserId: string | undefined): Promise<Plan> {
  const asked = req.query.action
  if (asked !== undefined && asked !== "register" && asked !== "authenticate") throw refuse(ctx, "ACTION_INVALID", 'action must be "register" or "authenticate"')
  if (asked === "authenticate" && signedInUserId === undefined) {
    const info = await userInfo(req, ctx)
    return info?.exists && typeof info.user.id === "string" ? { action: "authenticate", userId: info.user.id } : { action: "authenticate" }
  }
  if (asked === "authenticate") return { action: "authenticate" }
  if (signedInUserId !== undefined) {
    if (asked === undefined) throw refuse(ctx, "ACTION_REQUIRED", 'A signed-in user must ask for an action ("register" to add a passkey)')
    const user = await passkeyStore(ctx).getUser(signedInUserId)
    if (!user)
      throw refuse(ctx, "USER_NOT_STORED", "A passkey belongs to a user the adapter stores; the signed-in user is not stored (credentials sign-ins under the jwt strategy are not): store your users with the adapter")
    return { action: "register", user }
  }
  const info = await userInfo(req, ctx)
  if (info?.exists && typeof info.user.id === "string") {
    if (asked === "register") throw refuse(ctx, "REGISTRATION_REQUIRES_SESSION", "Sign in to add a passkey to an existing account")
    return { action: "authenticate", userId: info.user.id }
  }
  if (ctx.provider.allowNewAccounts) {
    if (asked === "register" || info) return { action: "register", name: cleanPasskeyName(info?.user.name ?? req.query.name) ?? "Passkey user" }
    return { action: "authenticate" }
  }
  if (asked === "register") throw refuse(ctx, "REGISTRATION_REQUIRES_SESSION", "Sign in to add a passkey: new accounts cannot be created with a passkey here")
  return { action: "authenticate" }
}

async function credentialsOf(ctx: FlowContext<WebAuthnConfig>, userId: string | undefined) {
  if (userId === undefined) return undefined
  const stored = await passkeyStore(ctx).listAuthenticatorsByUserId(userId)
  return stored.map((a) => {
    const transports = transportsOf(a.transports)
    return transports ? { id: storedIdToBase64url(a.credentialID), transports } : { id: storedIdToBase64url(a.credentialID) }
  })
}

/**
 * The options route's answer for `provider`; `signedInUserId` is the session's user, if any; `held`
 * a sign-in held for a second factor: authenticate options for its user, the challenge bound to it.
 */
export async function webauthnOptions(req: AuthRequest, ctx: FlowContext<WebAuthnConfig>, signedInUserId: string | undefined, held?: HeldSignIn): Promise<AuthResponse> {
  const { provider } = ctx
  const chosen: Plan = held ? { action: "authenticate", userId: held.userId } : await plan(req, ctx, signedInUserId)
  const [server, rp] = await Promise.all([webAuthnServer(provider), relyingPartyOf(req, ctx)])
  const userVerification = provider.userVerification ?? "required"
  const timeout = provider.timeout ?? challengeMaxAge(provider) * 1000
  let options: { challenge: string } & Record<string, unknown>
  let challenge: Challenge
  if (chosen.action === "authenticate") {
    const allowCredentials = await credentialsOf(ctx, chosen.userId)
    options = await server.generateAuthenticationOptions({ rpID: rp.id, timeout, userVerification, ...(allowCredentials ? { allowCredentials } : {}) })
    challenge = { challenge: options.challenge, provider: provider.id, action: "authenticate", ...(chosen.userId ? { userId: chosen.userId } : {}), ...(held ? { heldSignIn: held.id } : {}) }
  } else {
    const user = chosen.user
    const userName = user ? (user.email ?? user.name ?? user.id) : chosen.name!
    options = await server.generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName,
      userDisplayName: user?.name ?? userName,
      userID: crypto.getRandomValues(new Uint8Array(32)),
      timeout,
      attestationType: provider.attestationType ?? "none",
      excludeCredentials: (await credentialsOf(ctx, user?.id)) ?? [],
      authenticatorSelection: provider.authenticatorSelection ?? { residentKey: "required", requireResidentKey: true, userVerification },
    })
    challenge = { challenge: options.challenge, provider: provider.id, action: "register", ...(user ? { userId: user.id } : { name: chosen.name! }) }
  }
  const cookie = await issueChallenge(ctx, challenge)
  return { json: { action: chosen.action satisfies WebAuthnAction, options }, cookies: [cookie] }
}
