/**
 * The provider tokens of an account as a session keeps them (`StoredProviderTokens`, JWT sessions
 * with `session.providerTokens`): what its sign-in type keeps of them (`sessionTokens`: an
 * OAuth/OIDC account's token fields); none for a type that keeps none.
 */
import { registry } from "../registry/installed.js"
import type { Account } from "../types/config.js"
import type { StoredProviderTokens } from "../types/model.js"

/** The tokens of `account` a session keeps, or undefined. */
export function sessionTokensOf(account: Account): StoredProviderTokens | undefined {
  return registry().signInType(account.type)?.sessionTokens?.(account)
}
