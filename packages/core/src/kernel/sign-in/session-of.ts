/**
 * What the issuer builds from a flow's result: the first factor's authentication record, the
 * session handed to the strategy, and the `signIn` event's input. Pure: nothing is read or written.
 */
import type { AdapterAccount, AdapterUser } from "../types/adapters.js"
import type { EventCallbacks } from "../types/config.js"
import type { Context } from "../types/http.js"
import type { Authentication, NewSession, SignInResult } from "../types/sign-in.js"
import type { Registry } from "../types/registry.js"
import { spreadCopy } from "../objects/spread-copy.js"
import { nowSeconds } from "../sessions/lifetime.js"
import { firstFactorAmr } from "./amr.js"
import { userRules, type PersistedUser } from "./link-user.js"

/** When and how the first factor authenticated the user. */
export function authenticationOf(ctx: Context, result: SignInResult): Authentication {
  return { time: nowSeconds(), amr: firstFactorAmr(ctx, result) }
}

/** What storing the user answers for an account whose owner is `user` (see the issuer's `account` issuance). */
export function ownerOf(result: SignInResult, user: AdapterUser): PersistedUser {
  // `{ ...result.account, userId }` without V8's slow path (see `spreadCopy`).
  const account = spreadCopy(result.account) as Record<PropertyKey, unknown>
  account.userId = user.id
  return { user, account: account as unknown as AdapterAccount, isNewUser: false }
}

/** Who signed in (the stored user and account where there are, else the flow's), how and when. */
export function newSession(result: SignInResult, stored: PersistedUser | undefined, authentication: Authentication): NewSession {
  return { user: stored?.user ?? result.user, account: stored?.account ?? result.account, profile: result.profile, isNewUser: stored?.isNewUser ?? false, authentication }
}

/** What the `signIn` event receives. */
export type SignInEventInput = Parameters<EventCallbacks["signIn"]>[0]

export function signInEventInput(registry: Registry, result: SignInResult, stored: PersistedUser | undefined): SignInEventInput {
  return {
    // The app's own users are the ones its code returned (`authorize`), stored or not.
    user: userRules(registry, result).owner === "app" ? result.user : (stored?.user ?? result.user),
    account: stored?.account ?? result.account,
    ...(result.profile ? { profile: result.profile } : {}),
    isNewUser: stored?.isNewUser ?? false,
  }
}
