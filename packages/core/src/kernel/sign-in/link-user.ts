/**
 * Users and accounts in the adapter after a successful flow: find the user who owns the account,
 * or link the account to the signed-in user, or to the user with the same e-mail where that is
 * allowed (both addresses verified), or create the user. Emits createUser, updateUser and
 * linkAccount. An e-mail link that proves a never-verified address first removes what was linked
 * without it (`unverified-links.ts`).
 */
import { adapterMethods } from "../ports/ports.js"
import type { Adapter, AdapterAccount, AdapterUser } from "../types/adapters.js"
import { OAuthAccountNotLinked } from "../errors/errors.js"
import { emitEvent } from "../user-code/events.js"
import type { Context } from "../types/http.js"
import { findEmailUser } from "./email-user.js"
import type { SignInResult } from "../types/sign-in.js"
import type { User } from "../types/config.js"
import { removeUnverifiedLinks } from "./unverified-links.js"

export interface PersistedUser {
  user: AdapterUser
  account: AdapterAccount
  isNewUser: boolean
}

function newUser(user: User, emailVerified: Date | null): AdapterUser {
  // The provider's id is the account's providerAccountId; the stored user gets its own.
  const { id: _providerId, emailVerified: _claimed, ...rest } = user
  return { ...rest, id: crypto.randomUUID(), emailVerified } as AdapterUser
}

/** The date an OAuth/OIDC provider vouched for the address (`buildSignIn` sets it), else null. */
const vouchedAt = (user: User): Date | null => (user.emailVerified instanceof Date ? user.emailVerified : null)

/** Auth.js's user and account methods this step uses (each configured sign-in type checks its own at start-up). */
const users = <const K extends keyof Adapter>(ctx: Context, ...methods: K[]) => adapterMethods(ctx.config.adapter, methods, "Storing users")

async function link(ctx: Context, user: AdapterUser, result: SignInResult): Promise<AdapterAccount> {
  const account = { ...result.account, userId: user.id } as AdapterAccount
  await users(ctx, "linkAccount").linkAccount(account)
  if (result.authenticator) await users(ctx, "createAuthenticator").createAuthenticator({ ...result.authenticator, userId: user.id })
  await emitEvent(ctx, "linkAccount", { user, account, profile: result.user })
  return account
}

async function create(ctx: Context, result: SignInResult, emailVerified: Date | null): Promise<PersistedUser> {
  const user = await users(ctx, "createUser").createUser(newUser(result.user, emailVerified))
  await emitEvent(ctx, "createUser", { user })
  return { user, account: await link(ctx, user, result), isNewUser: true }
}

/**
 * E-mail sign-in: the address is proven, so the user is found by it (and marked verified) or created.
 * The e-mail flow has already looked the user and the account's owner up (`emailUser`).
 */
async function persistEmail(ctx: Context, result: SignInResult): Promise<PersistedUser> {
  const adapter = users(ctx, "getUserByAccount", "getUserByEmail", "updateUser")
  const email = result.user.email ?? result.account.providerAccountId
  const { user: stored, accountOwner: owner } = result.emailUser ?? (await findEmailUser(adapter, result.account, email))
  if (!stored) return create(ctx, { ...result, user: { ...result.user, email } }, new Date())
  let user = stored
  if (!user.emailVerified) {
    // The proof wins over whatever came in without one (account pre-hijacking).
    await removeUnverifiedLinks(ctx, user, email)
    user = await adapter.updateUser({ id: user.id, emailVerified: new Date() })
    await emitEvent(ctx, "updateUser", { user })
  }
  const account = owner ? ({ ...result.account, userId: owner.id } as AdapterAccount) : await link(ctx, user, result)
  return { user, account, isNewUser: false }
}

/**
 * Whether an OAuth/OIDC account may join `existing` by e-mail: only with
 * `allowDangerousEmailAccountLinking`, and only when both the provider and the stored user have
 * the address verified. Otherwise an unverified address on either side would hand one person's
 * user to whoever typed the address at some provider (account pre-hijacking).
 */
function mayLinkByEmail(result: SignInResult, existing: AdapterUser): boolean {
  return result.allowEmailLinking === true && vouchedAt(result.user) !== null && existing.emailVerified != null
}

/** Someone signed in whose e-mail belongs to an existing user: link only when allowed. */
async function byEmail(ctx: Context, result: SignInResult): Promise<PersistedUser | undefined> {
  const email = result.user.email
  if (!email) return undefined
  const existing = await users(ctx, "getUserByEmail").getUserByEmail(email)
  if (!existing) return undefined
  // A credentials account is vouched for by the application's own `authorize`.
  if (result.account.type !== "credentials" && !mayLinkByEmail(result, existing))
    throw new OAuthAccountNotLinked("Another account already uses this e-mail address", {
      code: "EMAIL_ALREADY_LINKED",
      cause: { provider: result.account.provider, linkingAllowed: result.allowEmailLinking === true, providerVerified: vouchedAt(result.user) !== null, userVerified: existing.emailVerified != null },
    })
  return { user: existing, account: await link(ctx, existing, result), isNewUser: false }
}

/**
 * Finds or creates the adapter user of `result`. `currentUserId` is the user already signed in
 * (linking a second account to them); an account owned by someone else is refused.
 */
export async function persistUser(ctx: Context, result: SignInResult, currentUserId?: string): Promise<PersistedUser> {
  if (result.account.type === "email") return persistEmail(ctx, result)
  // A passkey sign-in: the flow found the owner through the stored credential (its account's user).
  if (result.account.type === "webauthn" && !result.authenticator && result.knownUserId !== undefined && result.account.userId === result.knownUserId)
    return { user: result.user as AdapterUser, account: result.account as AdapterAccount, isNewUser: false }
  const owner = await users(ctx, "getUserByAccount").getUserByAccount(result.account)
  if (owner) {
    if (currentUserId && currentUserId !== owner.id)
      throw new OAuthAccountNotLinked("This account is linked to another user", { code: "ACCOUNT_OWNED_BY_OTHER_USER", cause: { provider: result.account.provider } })
    return { user: owner, account: { ...result.account, userId: owner.id } as AdapterAccount, isNewUser: false }
  }
  const current = currentUserId ? await users(ctx, "getUser").getUser(currentUserId) : null
  if (current) return { user: current, account: await link(ctx, current, result), isNewUser: false }
  // An OAuth/OIDC user is stored verified only when its provider vouched for the address.
  const emailVerified = result.account.type === "oauth" || result.account.type === "oidc" ? vouchedAt(result.user) : null
  return (await byEmail(ctx, result)) ?? create(ctx, result, emailVerified)
}
