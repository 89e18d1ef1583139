/** Who holds an e-mail address, as both the e-mail flow and account linking ask it. */
import type { AdapterMethods } from "../ports/ports.js"
import type { Account } from "../types/config.js"
import type { AdapterUser } from "../types/adapters.js"
import type { EmailUserLookup } from "../types/sign-in.js"

/**
 * The user with `email` and the owner of its `email` account. The owner is asked first: a returning
 * user's account is linked, and an owner who holds the address is the user with it (addresses are
 * unique), so one read answers both. Otherwise the user is looked up by the address.
 */
export async function findEmailUser(
  adapter: AdapterMethods<"getUserByAccount" | "getUserByEmail">,
  account: Pick<Account, "provider" | "providerAccountId">,
  email: string,
  /** The owner, when the token's consumption already read it (see `consumeTokenForAccount`). */
  knownOwner?: AdapterUser | null,
): Promise<EmailUserLookup> {
  const accountOwner = knownOwner !== undefined ? knownOwner : await adapter.getUserByAccount(account)
  if (accountOwner && accountOwner.email === email) return { user: accountOwner, accountOwner }
  return { user: await adapter.getUserByEmail(email), accountOwner }
}
