/**
 * The provider tokens of an account as a session keeps them (`StoredProviderTokens`, JWT sessions
 * with `session.providerTokens`): what its sign-in type keeps of them (`sessionTokens`: an
 * OAuth/OIDC account's token fields); none for a type that keeps none.
 */
import type { Account } from "../types/config.js"
import type { StoredProviderTokens } from "../types/model.js"
import type { Registry } from "../types/registry.js"

/** The tokens of `account` a session keeps (as its sign-in type in `registry` says), or undefined. */
export function sessionTokensOf(registry: Registry, account: Account): StoredProviderTokens | undefined {
  return registry.signInType(account.type)?.sessionTokens?.(account)
}
