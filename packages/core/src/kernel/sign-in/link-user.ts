/**
 * Users and accounts in the adapter after a successful flow: find the user who owns the account,
 * or link the account to the signed-in user, or to the user with the same e-mail where that is
 * allowed (both addresses verified), or create the user. Planned first, reading only (`planUser`),
 * then written (`applyPlan`), so a sign-in held for a second factor writes nothing before it passes.
 * Emits createUser, updateUser and linkAccount. An e-mail link that proves a never-verified address
 * first removes what was linked without it (`unverified-links.ts`).
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
 * Whether an OAuth/OIDC account may join `existing` by e-mail: only with
 * `allowDangerousEmailAccountLinking`, and only when both the provider and the stored user have
 * the address verified. Otherwise an unverified address on either side would hand one person's
 * user to whoever typed the address at some provider (account pre-hijacking).
 */
function mayLinkByEmail(result: SignInResult, existing: AdapterUser): boolean {
  return result.allowEmailLinking === true && vouchedAt(result.user) !== null && existing.emailVerified != null
}

/** Someone signed in whose e-mail belongs to an existing user: that user, when joining it is allowed. */
async function byEmail(ctx: Context, result: SignInResult): Promise<AdapterUser | undefined> {
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
  return existing
}

/**
 * Who a sign-in's user is and what storing it writes, read without writing anything (so a sign-in
 * held for a second factor stores nothing until that factor passes):
 * - `none`: the account is the user's already (`ownerId`: the account's owner, where it differs);
 * - `link`: the account (and a new passkey) joins `user`;
 * - `create`: a new user is created with the account;
 * - `prove`: an e-mail link proves the address of `user`, never verified: the clean-up of what was
 *   linked without that proof runs, the address is marked verified, then the account is linked
 *   unless `owned`.
 */
export type UserPlan =
  | { readonly write: "none"; readonly user: AdapterUser; readonly ownerId?: string }
  | { readonly write: "link"; readonly user: AdapterUser }
  | { readonly write: "create"; readonly emailVerified: Date | null }
  | { readonly write: "prove"; readonly user: AdapterUser; readonly ownerId: string | null }

/** The address an e-mail sign-in proved. */
const provenEmail = (result: SignInResult): string => result.user.email ?? result.account.providerAccountId

/** E-mail sign-in: the address is proven, so the user is the one with it (found by the flow, `emailUser`), or a new one. */
async function planEmail(ctx: Context, result: SignInResult): Promise<UserPlan> {
  const adapter = users(ctx, "getUserByAccount", "getUserByEmail", "updateUser")
  const { user, accountOwner: owner } = result.emailUser ?? (await findEmailUser(adapter, result.account, provenEmail(result)))
  if (!user) return { write: "create", emailVerified: new Date() }
  // The proof wins over whatever came in without one (account pre-hijacking).
  if (!user.emailVerified) return { write: "prove", user, ownerId: owner?.id ?? null }
  return owner ? { write: "none", user, ownerId: owner.id } : { write: "link", user }
}

/**
 * Plans storing the adapter user of `result` (see `UserPlan`). `currentUserId` is the user already
 * signed in (linking a second account to them); an account owned by someone else is refused.
 */
export async function planUser(ctx: Context, result: SignInResult, currentUserId?: string): Promise<UserPlan> {
  if (result.account.type === "email") return planEmail(ctx, result)
  // A passkey sign-in: the flow found the owner through the stored credential (its account's user).
  if (result.account.type === "webauthn" && !result.authenticator && result.knownUserId !== undefined && result.account.userId === result.knownUserId)
    return { write: "none", user: result.user as AdapterUser }
  const owner = await users(ctx, "getUserByAccount").getUserByAccount(result.account)
  if (owner) {
    if (currentUserId && currentUserId !== owner.id)
      throw new OAuthAccountNotLinked("This account is linked to another user", { code: "ACCOUNT_OWNED_BY_OTHER_USER", cause: { provider: result.account.provider } })
    return { write: "none", user: owner }
  }
  const current = currentUserId ? await users(ctx, "getUser").getUser(currentUserId) : null
  if (current) return { write: "link", user: current }
  const existing = await byEmail(ctx, result)
  if (existing) return { write: "link", user: existing }
  // An OAuth/OIDC user is stored verified only when its provider vouched for the address.
  return { write: "create", emailVerified: result.account.type === "oauth" || result.account.type === "oidc" ? vouchedAt(result.user) : null }
}

/** A plan with no proof left to settle. */
export type SettledPlan = Exclude<UserPlan, { write: "prove" }>

/** The stored user `plan` names before it is applied (`undefined`: a new user). */
export const plannedUserId = (plan: UserPlan): string | undefined => (plan.write === "create" ? undefined : plan.user.id)

/**
 * The e-mail proof of a never-verified address, done: what was linked without it removed
 * (`unverified-links.ts`), the address marked verified. The plan that is left: link or none.
 * Done before a sign-in may be held: it is the proof's consequence, not the sign-in's, and it must
 * not wait on a second factor the squatter may have enrolled.
 */
export async function settleProof(ctx: Context, result: SignInResult, plan: UserPlan): Promise<SettledPlan> {
  if (plan.write !== "prove") return plan
  await removeUnverifiedLinks(ctx, plan.user, provenEmail(result))
  const user = await users(ctx, "updateUser").updateUser({ id: plan.user.id, emailVerified: new Date() })
  await emitEvent(ctx, "updateUser", { user })
  return plan.ownerId ? { write: "none", user, ownerId: plan.ownerId } : { write: "link", user }
}

/** Writes what `plan` says (emits createUser, updateUser and linkAccount). */
export async function applyPlan(ctx: Context, result: SignInResult, planned: UserPlan): Promise<PersistedUser> {
  const plan = await settleProof(ctx, result, planned)
  if (plan.write === "none") return { user: plan.user, account: { ...result.account, userId: plan.ownerId ?? plan.user.id } as AdapterAccount, isNewUser: false }
  if (plan.write === "link") return { user: plan.user, account: await link(ctx, plan.user, result), isNewUser: false }
  const created = result.account.type === "email" ? { ...result, user: { ...result.user, email: provenEmail(result) } } : result
  return create(ctx, created, plan.emailVerified)
}

/**
 * Finds or creates the adapter user of `result`. `currentUserId` is the user already signed in
 * (linking a second account to them); an account owned by someone else is refused.
 */
export async function persistUser(ctx: Context, result: SignInResult, currentUserId?: string): Promise<PersistedUser> {
  return applyPlan(ctx, result, await planUser(ctx, result, currentUserId))
}
