/**
 * A passkey asked of a known user as a second factor: the options route made authenticate options
 * for the user of a held sign-in (`route.ts`, the challenge bound to that sign-in's id);
 * this verifies the answer exactly as a passkey sign-in is verified (`authenticate` of
 * `flow.ts`: the single-use challenge, origin, RP ID, signature, counter, the credential's
 * owner), and then that the challenge was made for this held sign-in and no other.
 */
import { InvalidProvider } from "../../kernel/errors/errors.js"
import { WebAuthnVerificationError } from "./errors.js"
import type { Cookie } from "../../kernel/types/http.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import type { HeldSignIn } from "../../kernel/types/capability.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"
import { authenticate, credentialOf } from "./flow.js"
import { consumeChallenge } from "./challenge.js"
import { relyingPartyOf } from "./relying-party.js"
import { webAuthnServer } from "./server.js"
import { passkeyStore } from "./store.js"

/** The passkey provider `id` names, or the first configured one; `InvalidProvider` (`FLOW_UNAVAILABLE`) when there is none. */
export function passkeyProviderOf(ctx: Pick<Context, "config">, id?: unknown): WebAuthnConfig {
  const provider = typeof id === "string" && id !== "" ? ctx.config.providerById.get(id) : ctx.config.providers.find((p) => p.type === "webauthn")
  if (provider?.type !== "webauthn") throw new InvalidProvider("No passkey provider can answer this", { code: "FLOW_UNAVAILABLE", cause: { provider: typeof id === "string" ? id.slice(0, 100) : undefined } })
  return provider as WebAuthnConfig
}

/** The first passkey provider when `userId` has a stored passkey, else undefined (no provider, or no passkey). */
export async function passkeyProviderForUser(ctx: Context, userId: string): Promise<WebAuthnConfig | undefined> {
  const provider = ctx.config.providers.find((p) => p.type === "webauthn") as WebAuthnConfig | undefined
  if (!provider) return undefined
  const stored = await passkeyStore({ config: ctx.config, provider }).listAuthenticatorsByUserId(userId)
  return stored.length ? provider : undefined
}

/** What `verifyHeldSignInPasskey` checks: the assertion (`data`), the held sign-in, and optionally the provider id. */
export interface HeldPasskeyCheck {
  data: unknown
  held: HeldSignIn
  provider?: unknown
}

/**
 * Verifies a passkey assertion answering options made for `held` (see the file comment). Resolves
 * the cookie that clears the used challenge; throws `WebAuthnVerificationError` (the codes of a
 * passkey sign-in; `CHALLENGE_INVALID` for a challenge of another sign-in) or `InvalidProvider`.
 */
export async function verifyHeldSignInPasskey(req: AuthRequest, ctx: Context, check: HeldPasskeyCheck): Promise<{ cookies: Cookie[]; userVerified: boolean }> {
  const provider = passkeyProviderOf(ctx, check.provider)
  const flowCtx: FlowContext<WebAuthnConfig> = { ...ctx, provider, callbackUrl: ctx.origin }
  const credential = credentialOf(flowCtx, check.data)
  // Consumed first: a refused answer still uses its challenge up.
  const { challenge, cookie } = await consumeChallenge(req, flowCtx, "authenticate")
  if (challenge.heldSignIn !== check.held.id || challenge.userId !== check.held.userId)
    throw new WebAuthnVerificationError("The passkey challenge was made for another sign-in", { code: "CHALLENGE_INVALID", cause: { provider: provider.id } })
  const [server, rp] = await Promise.all([webAuthnServer(provider), relyingPartyOf(req, flowCtx)])
  const requireUserVerification = (provider.userVerification ?? "required") === "required"
  // Checks the credential belongs to `challenge.userId`, the held sign-in's user.
  const verified = await authenticate({ ctx: flowCtx, credential, challenge, server, rp, requireUserVerification })
  return { cookies: [cookie], userVerified: verified.own?.userVerified === true }
}

/**
 * The binding of step-up options (`GET webauthn-options/:provider?action=authenticate&purpose=step-up`
 * while signed in): the signed-in user's passkeys, the challenge bound to this purpose and user, so
 * that a sign-in's options cannot be replayed as a step-up nor the reverse. A held sign-in's id is
 * random and never equals it.
 */
export const STEP_UP_BINDING = "step-up"

/** The signed-in user re-proving a passkey (step-up): verified as a held sign-in's passkey, bound to `STEP_UP_BINDING`. */
export function verifyStepUpPasskey(req: AuthRequest, ctx: Context, check: { data: unknown; provider?: unknown; userId: string }): Promise<{ cookies: Cookie[]; userVerified: boolean }> {
  return verifyHeldSignInPasskey(req, ctx, { data: check.data, provider: check.provider, held: { id: STEP_UP_BINDING, userId: check.userId } })
}
