/**
 * A session is issued only for an account link that still exists when the session is written. The
 * account pre-hijacking clean-up (`sign-in/unverified-links.ts`) unlinks a squatter's IdP accounts
 * and then ends the user's sessions; an IdP callback that found the account's owner just before the
 * unlink must not store its session just after the sessions ended. Each strategy closes that gap:
 * - database: the session is written by the statement that checks the link
 *   (`createSessionForAccount`), or, with an adapter without it, checked after it is written and
 *   deleted again (a clean-up that unlinks later also deletes it);
 * - JWT: the link is checked after the user's epoch was read into the token (a clean-up that
 *   unlinks later moves the epoch past the token's, which then reads as revoked).
 * Only sign-ins whose user comes from the link alone are held to it (`UserRules.fromLinkAlone`: an IdP's account).
 */
import { OAuthAccountNotLinked } from "../errors/errors.js"
import type { Context } from "../types/http.js"
import type { NewSession } from "../types/sign-in.js"

/** The linked user's id, and whether the link still holds. */
export interface LinkCheck {
  readonly userId: string
  stillLinked(): Promise<boolean>
}

/**
 * For a sign-in whose user came from an account link an adapter stores (an IdP's account, with an adapter):
 * the question "is the account still linked to this user?", to ask after the session was written or
 * its epoch read. Undefined for any other sign-in.
 */
export function linkCheck(ctx: Context, signIn: NewSession): LinkCheck | undefined {
  const { type, provider, providerAccountId } = signIn.account
  const lookUp = ctx.config.adapter?.getUserByAccount
  const userId = signIn.user.id
  if (!ctx.config.registry.signInType(type)?.users.fromLinkAlone || !lookUp || typeof userId !== "string") return undefined
  return { userId, stillLinked: async () => (await lookUp({ provider, providerAccountId }))?.id === userId }
}

/** The refusal of a sign-in whose account was unlinked while it was being signed in. */
export function unlinkedMeanwhile(signIn: NewSession): OAuthAccountNotLinked {
  return new OAuthAccountNotLinked("The account was unlinked from its user while signing in: no session was issued", { code: "ACCOUNT_UNLINKED", cause: { provider: signIn.account.provider } })
}
