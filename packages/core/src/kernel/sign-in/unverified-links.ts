/**
 * Account pre-hijacking, undone when the owner proves the address (Sudhodanan & Paverd, USENIX
 * Security 2022). Someone who signs in through a provider that does not verify addresses can
 * create a user with another person's address; when that person later proves the address with an
 * e-mail link, they land in that user. The proof wins: before the user is marked verified, every
 * way into it that did not come with a verified address is cut.
 *
 * The rule: a user whose `emailVerified` is null has never had its address proven, so every
 * account linked to it so far was linked without that proof. All of them are removed (the accounts
 * that prove the address, of the proving sign-in's type, excepted), with the user's passkeys and what capabilities keep
 * that would let the squatter keep control (`Capability.removeFootholds`: second factors), and all
 * the user's sessions end: database sessions are deleted, JWT sessions end by moving the user's
 * session epoch. The user, and the data the application keeps under its id, stays. See the README,
 * "Account linking".
 */
import type { AdapterUser } from "../types/adapters.js"
import { missingError, missingMethods } from "../ports/ports.js"
import type { MissingAdapterMethods } from "../errors/errors.js"
import type { Context } from "../types/http.js"
import { bumpEpoch } from "../sessions/revocation.js"
import { sessionStrategy } from "../sessions/strategy.js"

/** The adapter methods the clean-up needs under the configured session strategy. */
function neededMethods(ctx: Context): string[] {
  const sessions = sessionStrategy(ctx.config).storesSessions ? ["deleteSessionsByUserId"] : ["getUserSessionEpoch", "incrementUserSessionEpoch"]
  return ["listAccountsByUserId", "unlinkAccount", ...sessions]
}

function refuse(missing: string[], userId: string): MissingAdapterMethods {
  return missingError(missing, { what: "An e-mail link proves the address of a user whose address was never verified; removing what was linked without it", facts: { userId } })
}

/**
 * Cuts every foothold in `user` that was gained without a verified address, before an e-mail link
 * proof marks the address verified. Reads first and refuses (`MissingAdapterMethods`, nothing
 * written) when the adapter cannot do all of it; the user stays unverified until it is all done,
 * so an interrupted clean-up is finished by the next link.
 */
export async function removeUnverifiedLinks(ctx: Context, user: AdapterUser, proof: { readonly type: string; readonly address: string }): Promise<void> {
  const adapter = ctx.config.adapter
  const missing = missingMethods(adapter, neededMethods(ctx))
  const { listAccountsByUserId: listAccounts, unlinkAccount, listAuthenticatorsByUserId, deleteAuthenticator, deleteSessionsByUserId } = adapter ?? {}
  if (missing.length || !listAccounts || !unlinkAccount) throw refuse(missing, user.id)
  // What would stay linked: every account but those of the proof (its type, its address), and every passkey.
  const accounts = (await listAccounts(user.id)).filter((a) => !(a.type === proof.type && a.providerAccountId === proof.address))
  const authenticators = listAuthenticatorsByUserId ? await listAuthenticatorsByUserId(user.id) : []
  if (authenticators.length && !deleteAuthenticator) throw refuse(["deleteAuthenticator"], user.id)
  // Passkeys first: a passkey signs in through its authenticator record, whatever its account.
  for (const authenticator of authenticators) await deleteAuthenticator?.(authenticator.credentialID)
  for (const { provider, providerAccountId } of accounts) await unlinkAccount({ provider, providerAccountId })
  const removed: Record<string, unknown> = {}
  for (const remove of ctx.config.registry.footholds) Object.assign(removed, await remove(ctx, user.id))
  if (deleteSessionsByUserId) await deleteSessionsByUserId(user.id)
  await bumpEpoch(ctx, user.id)
  if (accounts.length || authenticators.length || Object.keys(removed).length)
    ctx.config.logger.warn("unverified-links-removed", "an e-mail link proved the address of a user whose address was never verified: what was linked before is removed and their sessions ended", {
      userId: user.id,
      accounts: accounts.map((a) => ({ provider: a.provider, type: a.type })),
      passkeys: authenticators.length,
      ...removed,
    })
}
