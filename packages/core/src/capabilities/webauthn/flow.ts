/**
 * POST callback/:provider of a passkey provider (CSRF-checked by the route like every POST): the
 * fields `action`, `data` (the credential as `@simplewebauthn/browser` returns it, JSON text in a
 * form or an object in a JSON body) and `csrfToken`, as Auth.js sends them. The challenge is
 * consumed first, then the response is verified against it, the relying party and the stored
 * credential.
 *
 * - authenticate: the stored credential's signature, origin, RP ID, user verification and counter
 *   (a counter that goes backwards means a cloned authenticator: refused and logged); the counter
 *   is stored; the credential's owner signs in. Where the adapter and strategy can, in two
 *   statements: the challenge used and the credential read together, then the counter stored and
 *   the owner's session written together (nothing written when the passkey was deleted meanwhile).
 * - register: for the signed-in user the options were made for (still signed in), or a new account
 *   when the provider allows it; a credential id that is already stored is refused. The
 *   authenticator is stored when its account is linked (`sign-in/link-user.ts`).
 */
import { passkeyStore } from "./store.js"
import type { AdapterAuthenticator, AdapterUser } from "../../kernel/types/adapters.js"
import type { ErrorCode } from "../../kernel/errors/errors.js"
import { WebAuthnVerificationError } from "./errors.js"
import type { AuthRequest } from "../../kernel/types/http.js"
import type { SimpleWebAuthnServer, WebAuthnConfig, WebAuthnRelyingParty } from "../../kernel/types/providers.js"
import type { Flow, FlowContext, FlowOutcome, SignInResult } from "../../kernel/types/sign-in.js"
import { consumeChallenge, type Challenge, type WebAuthnAction } from "./challenge.js"
import { credentialIdToStored, decodeBase64, toBase64, transportsOf } from "./encoding.js"
import { coseToJwk } from "./cose.js"
import { relyingPartyOf } from "./relying-party.js"
import { verifyAssertion } from "./verify-assertion.js"
import { webAuthnServer } from "./server.js"
import { describeClient } from "../../kernel/sessions/client-description.js"
import { requireFreshSecondFactor } from "../../kernel/sessions/freshness.js"
import { mayIssueWithFirstFactor } from "../../kernel/sign-in/issue.js"
import { firstFactorAmr } from "../../kernel/sign-in/amr.js"
import { nowSeconds } from "../../kernel/sessions/lifetime.js"
import { issue } from "../../kernel/sessions/issuer.js"

type Code = ErrorCode<"WebAuthnVerificationError">

const refuse = (ctx: FlowContext<WebAuthnConfig>, code: Code, message: string, facts: Record<string, unknown> = {}) =>
  new WebAuthnVerificationError(message, { code, cause: { provider: ctx.provider.id, ...facts } })

/**
 * What a passkey sign-in carries of its own (`SignInResult.own`): the stored user the flow
 * identified (the passkey's owner, or the signed-in user adding one), whether the assertion
 * verified the person too, and a new credential to store when its account is linked.
 */
export interface PasskeySignIn {
  readonly knownUserId?: string
  readonly userVerified?: boolean
  readonly authenticator?: Omit<AdapterAuthenticator, "userId">
}

/** The credential JSON of the body: an object with a string `id` and a `response` object. */
export function credentialOf(ctx: FlowContext<WebAuthnConfig>, data: unknown): { id: string; response: Record<string, unknown> } & Record<string, unknown> {
  let value = data
  if (typeof data === "string") {
    try {
      value = JSON.parse(data)
    } catch {
      value = undefined
    }
  }
  const credential = value as { id?: unknown; response?: unknown } | null | undefined
  if (!credential || typeof credential !== "object" || typeof credential.id !== "string" || !credential.response || typeof credential.response !== "object")
    throw refuse(ctx, "RESPONSE_INVALID", 'The passkey response ("data") is missing or malformed')
  return credential as { id: string; response: Record<string, unknown> }
}

/** `@simplewebauthn/server` throws plain Errors; their messages name the failed check. */
function verificationError(ctx: FlowContext<WebAuthnConfig>, err: unknown): WebAuthnVerificationError {
  const message = err instanceof Error ? err.message : String(err)
  const code: Code = /counter/i.test(message)
    ? "COUNTER_REGRESSION"
    : /origin/i.test(message)
      ? "ORIGIN_MISMATCH"
      : /RP ID/i.test(message)
        ? "RP_ID_MISMATCH"
        : /user verification|could not be verified/i.test(message)
          ? "USER_VERIFICATION_MISSING"
          : /challenge/i.test(message)
            ? "CHALLENGE_INVALID"
            : "VERIFICATION_FAILED"
  return new WebAuthnVerificationError(`The passkey response was refused: ${message}`, { code, cause: { provider: ctx.provider.id, err: err as Error } })
}

async function verified<T>(ctx: FlowContext<WebAuthnConfig>, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    const mapped = err instanceof WebAuthnVerificationError ? err : verificationError(ctx, err)
    // A cloned authenticator is a security event: the operator must hear of it.
    if (mapped.code === "COUNTER_REGRESSION") ctx.config.logger.warn("webauthn-counter-regression", mapped)
    throw mapped
  }
}

export interface Ceremony {
  ctx: FlowContext<WebAuthnConfig>
  credential: { id: string; response: Record<string, unknown> }
  challenge: Challenge
  server: SimpleWebAuthnServer
  rp: WebAuthnRelyingParty
  requireUserVerification: boolean
  /** The credential as read with the challenge's use (`useVerificationTokenAndGetAuthenticator`); absent: not read yet. */
  stored?: AdapterAuthenticator | null
  /** A sign-in's request: its session may be stored with the counter (the `authenticator` issuance). Absent for a second factor. */
  signIn?: AuthRequest
}

export async function authenticate(ceremony: Ceremony): Promise<SignInResult<PasskeySignIn>> {
  const { ctx, credential, challenge, server, rp, requireUserVerification } = ceremony
  const adapter = passkeyStore(ctx)
  const credentialID = credentialIdToStored(credential.id)
  const stored = ceremony.stored !== undefined ? ceremony.stored : credentialID ? await adapter.getAuthenticator(credentialID) : null
  // Options made for one user accept only that user's passkeys.
  if (!stored || (challenge.userId !== undefined && stored.userId !== challenge.userId))
    throw refuse(ctx, "CREDENTIAL_UNKNOWN", "This passkey is not registered here")
  const publicKey = decodeBase64(stored.credentialPublicKey)
  if (!publicKey) throw refuse(ctx, "CREDENTIAL_UNKNOWN", "The stored passkey is unreadable", { credentialID })
  const newCounter = await verified(ctx, async () => {
    const key = coseToJwk(publicKey)
    // The key types authenticators use are verified in-process (see verify-assertion.ts).
    if (key)
      return (await verifyAssertion({ response: credential, expectedChallenge: challenge.challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, key, counter: stored.counter, requireUserVerification, provider: ctx.provider.id })).newCounter
    const transports = transportsOf(stored.transports)
    const result = await server.verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: credential.id, publicKey, counter: stored.counter, ...(transports ? { transports } : {}) },
      requireUserVerification,
    })
    if (!result.verified) throw refuse(ctx, "SIGNATURE_INVALID", "The passkey signature does not verify")
    return result.authenticationInfo.newCounter
  })
  const atOnce = ceremony.signIn && (await issueWithCounter(ceremony.signIn, ctx, stored, newCounter, requireUserVerification))
  if (atOnce) return atOnce
  await adapter.updateAuthenticatorCounter(stored.credentialID, newCounter)
  const user = await adapter.getUser(stored.userId)
  if (!user) throw refuse(ctx, "CREDENTIAL_UNKNOWN", "The passkey's user no longer exists", { credentialID })
  return {
    user,
    account: { provider: ctx.provider.id, providerAccountId: stored.providerAccountId, type: "webauthn", userId: user.id },
    // The assertion verified with user verification required: the passkey proved the person too.
    own: { knownUserId: user.id, ...(requireUserVerification ? { userVerified: true } : {}) },
  }
}

/**
 * The counter stored and the owner's session written in one adapter call, where nothing must see
 * the user first (`mayIssueWithFirstFactor`) and the strategy can; undefined otherwise (the usual
 * path follows). A passkey deleted since it was read (the pre-hijacking clean-up) signs no one in.
 */
async function issueWithCounter(req: AuthRequest, ctx: FlowContext<WebAuthnConfig>, stored: AdapterAuthenticator, counter: number, userVerified: boolean): Promise<SignInResult<PasskeySignIn> | undefined> {
  if (!mayIssueWithFirstFactor(ctx)) return undefined
  const account = { provider: ctx.provider.id, providerAccountId: stored.providerAccountId, type: "webauthn" as const }
  const verifiedPerson = userVerified ? { userVerified: true } : {}
  const amr = firstFactorAmr(ctx, { user: {}, account, own: verifiedPerson })
  const issued = await issue(req, ctx, { kind: "authenticator", passkey: { credentialID: stored.credentialID, counter }, authentication: { time: nowSeconds(), amr } })
  if (issued === undefined) return undefined
  if (issued === null) throw refuse(ctx, "CREDENTIAL_UNKNOWN", "This passkey is not registered here", { credentialID: stored.credentialID })
  const user = issued.user
  return { user, account: { ...account, userId: user.id }, issued, own: { knownUserId: user.id, ...verifiedPerson } }
}

async function registrant(ctx: FlowContext<WebAuthnConfig>, challenge: Challenge): Promise<AdapterUser | { name: string }> {
  const signedIn = await ctx.signedInUserId?.()
  if (challenge.userId !== undefined) {
    const user = signedIn === challenge.userId ? await passkeyStore(ctx).getUser(signedIn) : null
    if (!user) throw refuse(ctx, "REGISTRATION_REQUIRES_SESSION", "The passkey was started for a signed-in user who is no longer signed in")
    return user
  }
  if (!ctx.provider.allowNewAccounts || signedIn !== undefined)
    throw refuse(ctx, "REGISTRATION_REQUIRES_SESSION", "Sign in to add a passkey: new accounts cannot be created with a passkey here")
  return { name: challenge.name ?? "Passkey user" }
}

async function register({ ctx, credential, challenge, server, rp, requireUserVerification }: Ceremony): Promise<SignInResult<PasskeySignIn>> {
  const owner = await registrant(ctx, challenge)
  if (!credentialIdToStored(credential.id)) throw refuse(ctx, "RESPONSE_INVALID", "The passkey response has a malformed id")
  const result = await verified(ctx, () =>
    server.verifyRegistrationResponse({ response: credential, expectedChallenge: challenge.challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification }),
  )
  const info = result.registrationInfo
  if (!result.verified || !info) throw refuse(ctx, "VERIFICATION_FAILED", "The passkey registration could not be verified")
  // The id the authenticator put in its signed data is the one stored, whatever `id` the JSON said.
  const id = credentialIdToStored(info.credential.id)
  if (!id || id !== credentialIdToStored(credential.id)) throw refuse(ctx, "RESPONSE_INVALID", "The passkey response's id is not the id of the credential it signed")
  // Checked against the signed id: the JSON's `id` is the client's word and may name another credential.
  if (await passkeyStore(ctx).getAuthenticator(id)) throw refuse(ctx, "CREDENTIAL_ALREADY_REGISTERED", "This passkey is already registered")
  const authenticator: Omit<AdapterAuthenticator, "userId"> = {
    credentialID: id,
    providerAccountId: id,
    counter: info.credential.counter,
    credentialPublicKey: toBase64(info.credential.publicKey),
    credentialBackedUp: info.credentialBackedUp,
    credentialDeviceType: info.credentialDeviceType,
    transports: info.credential.transports?.join(",") ?? null,
  }
  const account = { provider: ctx.provider.id, providerAccountId: id, type: "webauthn" as const }
  if ("id" in owner) return { user: owner, account, own: { authenticator, knownUserId: owner.id } }
  // A new account: no e-mail (nothing proved one), the display name it was created with.
  return { user: { name: owner.name, email: null }, account, own: { authenticator } }
}

/**
 * A new passkey is named after the browser that made it ("Chrome on Android", from the fixed
 * vocabulary of session descriptions, so a hostile User-Agent never becomes a name), for adapters
 * that keep names (those with the authlib-only `updateAuthenticator`: an Auth.js adapter may refuse
 * a key it does not know). Its owner can rename it.
 */
function withDefaultName(req: AuthRequest, ctx: FlowContext<WebAuthnConfig>, signIn: SignInResult<PasskeySignIn>): SignInResult<PasskeySignIn> {
  const name = describeClient(req.headers.get("user-agent"))
  const authenticator = signIn.own?.authenticator
  if (!authenticator || !name || typeof ctx.config.adapter?.updateAuthenticator !== "function") return signIn
  return { ...signIn, own: { ...signIn.own, authenticator: { ...authenticator, name } } }
}

async function callback(req: AuthRequest, ctx: FlowContext<WebAuthnConfig>): Promise<FlowOutcome> {
  const action = req.body.action
  if (action !== "register" && action !== "authenticate") throw refuse(ctx, "ACTION_INVALID", 'action must be "register" or "authenticate"')
  const credential = credentialOf(ctx, req.body.data)
  const credentialID = action === "authenticate" ? (credentialIdToStored(credential.id) ?? undefined) : undefined
  const { challenge, cookie, authenticator } = await consumeChallenge(req, ctx, action satisfies WebAuthnAction, credentialID)
  // A signed-in user adding a way in: with two factors on, one verified recently (step-up).
  if (action === "register" && challenge.userId !== undefined && (await ctx.signedInUserId?.()) === challenge.userId) await requireFreshSecondFactor(req, ctx, "Sign in to add a passkey")
  const [server, rp] = await Promise.all([webAuthnServer(ctx.provider), relyingPartyOf(req, ctx)])
  const ceremony: Ceremony = { ctx, credential, challenge, server, rp, requireUserVerification: (ctx.provider.userVerification ?? "required") === "required", signIn: req }
  if (authenticator !== undefined) ceremony.stored = authenticator
  const signIn = action === "authenticate" ? await authenticate(ceremony) : withDefaultName(req, ctx, await register(ceremony))
  return { signIn: { ...signIn, cookies: [cookie] } }
}

/** The passkey flow: its sign-in starts at GET webauthn-options/:provider (see `options.ts`). */
export const webauthnFlow: Flow<WebAuthnConfig> = {
  callbackMethods: ["POST"],
  callbackCsrf: true,
  callback,
}
