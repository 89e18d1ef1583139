/** Who holds an e-mail address, as both the e-mail flow and its user plan ask it. */
import type { AdapterMethods } from "../../kernel/ports/ports.js"
import type { Account } from "../../kernel/types/config.js"
import type { AdapterUser } from "../../kernel/types/adapters.js"

/** Who holds an e-mail address: the user with it, and the owner of its `email` account (`null`: none). */
export interface EmailUserLookup {
  user: AdapterUser | null
  accountOwner: AdapterUser | null
}

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
