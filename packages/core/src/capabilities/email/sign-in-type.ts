/**
 * E-mail links as a sign-in type: what the kernel asks of it besides its flow.
 *
 * - First factor `otp`. RFC 8176 has no e-mail value; the link carries a random one-time secret
 *   delivered out of band, which is what `otp` describes (`sms`/`tel` name the channel, not this).
 * - Users: the link proves the address, so the user is the one with it (as the flow found them),
 *   or a new user with the address verified now. A user whose address was never verified is
 *   `prove`d: what was linked without the proof is removed first (account pre-hijacking).
 * - Page: the address and a button. Environment: `AUTH_<ID>_KEY` fills `apiKey` (HTTP services).
 */
import { adapterMethods } from "../../kernel/ports/ports.js"
import type { SignInTypeDeclaration } from "../../kernel/types/capability.js"
import type { EmailConfig, ProviderConfig } from "../../kernel/types/providers.js"
import type { SignInResult, UserPlan } from "../../kernel/types/sign-in.js"
import type { Context } from "../../kernel/types/http.js"
import { emailCallback, type EmailSignIn } from "./flow-callback.js"
import { checkEmailProvider } from "./check.js"
import { findEmailUser } from "./email-user.js"
import { emailSignin } from "./flow-signin.js"
import { emailPagePart } from "./sign-in-page.js"

/** The address the link proved. */
const provenEmail = (result: SignInResult): string => result.user.email ?? result.account.providerAccountId

/** The user with the proven address (found by the flow, or asked now), or a new one. */
async function planEmail(ctx: Context, result: SignInResult<EmailSignIn>): Promise<UserPlan> {
  const address = provenEmail(result)
  const adapter = adapterMethods(ctx.config.adapter, ["getUserByAccount", "getUserByEmail", "updateUser"], "Storing users")
  const { user, accountOwner: owner } = result.own?.lookup ?? (await findEmailUser(adapter, result.account, address))
  if (!user) return { write: "create", emailVerified: new Date(), email: address }
  // The proof wins over whatever came in without one (account pre-hijacking).
  if (!user.emailVerified) return { write: "prove", user, ownerId: owner?.id ?? null, address }
  return owner ? { write: "none", user, ownerId: owner.id } : { write: "link", user }
}

/** An HTTP e-mail service's API key from `AUTH_<ID>_KEY`, as Auth.js reads it, where neither the provider nor its `options` set one. */
function fromEnv(provider: EmailConfig, read: (name: string) => string | undefined, stem: string): EmailConfig {
  const key = read(`AUTH_${stem}_KEY`)
  const opts = (provider.options ?? {}) as Record<string, unknown>
  return key !== undefined && provider.apiKey === undefined && opts.apiKey === undefined ? { ...provider, apiKey: key } : provider
}

export const emailSignInType: SignInTypeDeclaration<EmailConfig, EmailSignIn> = {
  flow: { callbackMethods: ["GET", "POST"], callbackCsrf: true, signin: emailSignin, callback: emailCallback },
  check: (provider, config) => checkEmailProvider(provider as ProviderConfig, config),
  firstFactor: () => ({ amr: ["otp"], factors: 1 }),
  users: { owner: "adapter", joins: "none", plan: (ctx, result) => planEmail(ctx, result) },
  page: emailPagePart,
  fromEnv,
}
