/**
 * A held sign-in as its holder keeps it (`ResumableSignIn`): the flow's result made JSON-safe and
 * lean, and read back. What must not leave the request is left out: the flow's cookies, and of its
 * own data whatever its sign-in type does not `keep` (the credentials a user typed, look-ups). Dates (`emailVerified`, which
 * decides whether a provider vouched for an address) travel as ISO strings and come back as dates.
 */
import type { Authentication, ResumableSignIn, SignInResult } from "../types/sign-in.js"
import type { Registry } from "../types/registry.js"

/** `result` as a held sign-in keeps it (what its sign-in type in `registry` says it may keep). */
export function resumable(registry: Registry, result: SignInResult, stores: boolean, authentication: Authentication, linkTo: string | undefined): ResumableSignIn {
  const { user, account, profile } = result
  const emailVerified = user.emailVerified instanceof Date && !Number.isNaN(user.emailVerified.getTime()) ? user.emailVerified.toISOString() : null
  const kept: ResumableSignIn["result"] = { user: { ...user, emailVerified }, account }
  if (profile !== undefined) kept.profile = profile
  // The sign-in type says what of its own data may be kept (never what the user typed).
  const own = registry.signInType(account.type)?.keep?.(result.own)
  if (own !== undefined) kept.own = own
  return { result: kept, stores, authentication, ...(linkTo !== undefined ? { linkTo } : {}) }
}

/** The flow's result a held sign-in kept, dates revived. */
export function resumedResult(held: ResumableSignIn): SignInResult {
  const verified = held.result.user.emailVerified
  const emailVerified = typeof verified === "string" && !Number.isNaN(Date.parse(verified)) ? new Date(verified) : null
  return { ...held.result, user: { ...held.result.user, emailVerified } }
}
