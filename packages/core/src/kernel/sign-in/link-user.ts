/**
 * Users and accounts in the adapter after a successful flow: find the user who owns the account,
 * or link the account to the signed-in user, or to the user with the same e-mail where the sign-in
 * type allows it, or create the user. The sign-in type's rules (`UserRules`) say what differs: its
 * own plan (an e-mail link's, a passkey's owner), whether it may join by address, when a new
 * user's address counts as verified, what else a link stores. Planned first, reading only
 * (`planUser`), then written (`applyPlan`), so a sign-in held for a second factor writes nothing
 * before it passes. Emits createUser, updateUser and linkAccount. A proof of a never-verified
 * address (`prove`) first removes what was linked without it (`unverified-links.ts`).
 */
import { adapterMethods } from "../ports/ports.js"
import type { Adapter, AdapterAccount, AdapterUser } from "../types/adapters.js"
import { OAuthAccountNotLinked } from "../errors/errors.js"
import { emitEvent } from "../user-code/events.js"
import type { Context } from "../types/http.js"
import type { SignInResult, UserPlan } from "../types/sign-in.js"
import type { User } from "../types/config.js"
import type { UserRules } from "../types/capability.js"
import type { Registry } from "../types/registry.js"
import { removeUnverifiedLinks } from "./unverified-links.js"

export type { UserPlan } from "../types/sign-in.js"

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

/** The user rules of `result`'s sign-in type (a type without a declaration joins no one and proves nothing). */
export function userRules(registry: Registry, result: SignInResult): UserRules {
  return registry.signInType(result.account.type)?.users ?? { owner: "adapter", joins: "none" }
}

/** Auth.js's user and account methods this step uses (each configured sign-in type checks its own at start-up). */
const users = <const K extends keyof Adapter>(ctx: Context, ...methods: K[]) => adapterMethods(ctx.config.adapter, methods, "Storing users")

async function link(ctx: Context, user: AdapterUser, result: SignInResult): Promise<AdapterAccount> {
  const account = { ...result.account, userId: user.id } as AdapterAccount
  await users(ctx, "linkAccount").linkAccount(account)
  await userRules(ctx.config.registry, result).linked?.(ctx, user.id, result.own)
  await emitEvent(ctx, "linkAccount", { user, account, profile: result.user })
  return account
}

async function create(ctx: Context, result: SignInResult, emailVerified: Date | null): Promise<PersistedUser> {
  const user = await users(ctx, "createUser").createUser(newUser(result.user, emailVerified))
  await emitEvent(ctx, "createUser", { user })
  return { user, account: await link(ctx, user, result), isNewUser: true }
}

/** Someone signed in whose e-mail belongs to an existing user: that user, when joining it is allowed. */
async function byEmail(ctx: Context, result: SignInResult): Promise<AdapterUser | undefined> {
  const email = result.user.email
  if (!email) return undefined
  const existing = await users(ctx, "getUserByEmail").getUserByEmail(email)
  if (!existing) return undefined
  const join = userRules(ctx.config.registry, result).joinByEmail?.(result, existing)
  if (!join?.allowed)
    throw new OAuthAccountNotLinked("Another account already uses this e-mail address", {
      code: "EMAIL_ALREADY_LINKED",
      cause: { provider: result.account.provider, ...join?.facts, userVerified: existing.emailVerified != null },
    })
  return existing
}

/**
 * Plans storing the adapter user of `result` (see `UserPlan`). `currentUserId` is the user already
 * signed in (linking a second account to them); an account owned by someone else is refused.
 */
export async function planUser(ctx: Context, result: SignInResult, currentUserId?: string): Promise<UserPlan> {
  const rules = userRules(ctx.config.registry, result)
  const own = rules.plan && (await rules.plan(ctx, result, currentUserId))
  if (own) return own
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
  return { write: "create", emailVerified: rules.verifiedAt?.(result) ?? null }
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
  await removeUnverifiedLinks(ctx, plan.user, { type: result.account.type, address: plan.address })
  const user = await users(ctx, "updateUser").updateUser({ id: plan.user.id, emailVerified: new Date() })
  await emitEvent(ctx, "updateUser", { user })
  return plan.ownerId ? { write: "none", user, ownerId: plan.ownerId } : { write: "link", user }
}

/** Writes what `plan` says (emits createUser, updateUser and linkAccount). */
export async function applyPlan(ctx: Context, result: SignInResult, planned: UserPlan): Promise<PersistedUser> {
  const plan = await settleProof(ctx, result, planned)
  if (plan.write === "none") return { user: plan.user, account: { ...result.account, userId: plan.ownerId ?? plan.user.id } as AdapterAccount, isNewUser: false }
  if (plan.write === "link") return { user: plan.user, account: await link(ctx, plan.user, result), isNewUser: false }
  const created = plan.email !== undefined ? { ...result, user: { ...result.user, email: plan.email } } : result
  return create(ctx, created, plan.emailVerified)
}
