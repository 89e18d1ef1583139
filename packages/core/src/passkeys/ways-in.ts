/**
 * A user's ways in: what can really sign them in with this configuration. One definition for the
 * list users see, for what may be unlinked, and for the "last way in" rule:
 * - a linked account of a configured OAuth/OIDC provider (an IdP);
 * - a password: a `credentials` account of a configured credentials provider (the password itself is
 *   the app's: it is never "unlinked" here);
 * - a passkey (an authenticator, while a passkey provider is configured);
 * - an e-mail link: an e-mail provider is configured and the user's address is verified (an address
 *   nobody proved is no way in: the link would go to whoever typed it).
 *
 * Removing a way in is a check, the write, then the check again: when two removals race and the
 * second check finds nothing left, what this call removed is put back and the call is refused. Of
 * concurrent removals at least one way in always remains.
 */
import type { AdapterAccount, AdapterAuthenticator } from "../adapters.js"
import type { Context } from "../http/types.js"
import { logError } from "../logger.js"

/** Whether `account` is one that signs in with this configuration (IdP account or password). */
export function accountSignsIn(ctx: Context, account: Pick<AdapterAccount, "provider" | "type">): boolean {
  const provider = ctx.config.providerById.get(account.provider)
  if (!provider) return false
  if (account.type === "credentials") return provider.type === "credentials"
  return (account.type === "oauth" || account.type === "oidc") && (provider.type === "oauth" || provider.type === "oidc")
}

/** Whether an e-mail link reaches the user: an e-mail provider and a verified address. */
async function emailSignsIn(ctx: Context, userId: string): Promise<boolean> {
  const getUser = ctx.config.adapter?.getUser
  if (!getUser || !ctx.config.providers.some((p) => p.type === "email")) return false
  const user = await getUser(userId)
  return typeof user?.email === "string" && user.email !== "" && user.emailVerified != null
}

/** Whether a passkey signs the user in (`passkeys`: the ones the caller knows remain). */
async function passkeySignsIn(ctx: Context, userId: string, passkeys: readonly AdapterAuthenticator[] | undefined): Promise<boolean> {
  const list = ctx.config.adapter?.listAuthenticatorsByUserId
  if (!ctx.config.providers.some((p) => p.type === "webauthn")) return false
  if (passkeys) return passkeys.length > 0
  return list ? (await list(userId)).length > 0 : false
}

/** What the caller already knows will remain; what it does not say is read from the adapter. */
export interface Remaining {
  accounts?: readonly AdapterAccount[] | undefined
  passkeys?: readonly AdapterAuthenticator[] | undefined
}

/**
 * Whether the user has a way in. Without `listAccountsByUserId` linked accounts cannot be seen, so
 * the answer errs towards "no" (a removal is refused more often, never wrongly allowed).
 */
export async function hasWayIn(ctx: Context, userId: string, remaining: Remaining = {}): Promise<boolean> {
  const list = ctx.config.adapter?.listAccountsByUserId
  const linked = remaining.accounts ?? (list ? await list(userId) : [])
  if (linked.some((a) => accountSignsIn(ctx, a))) return true
  return (await passkeySignsIn(ctx, userId, remaining.passkeys)) || (await emailSignsIn(ctx, userId))
}

/** What a removal did, and how to undo it if it turns out to have been the last way in. */
export interface Removal<T> {
  value: T
  restore(): Promise<unknown>
}

/**
 * Runs `remove`, then checks that the user still has a way in; when not, restores what it removed
 * and throws `refusal()`. A failing restore is logged (the refusal still goes out).
 */
export async function removeWayIn<T>(ctx: Context, userId: string, remove: () => Promise<Removal<T>>, refusal: () => Error): Promise<T> {
  const removal = await remove()
  if (await hasWayIn(ctx, userId)) return removal.value
  try {
    await removal.restore()
  } catch (err) {
    logError(ctx.config.logger, err)
  }
  throw refusal()
}
