/**
 * Server functions for the sign-in methods linked to the signed-in user: list them (provider,
 * type, whether it can be unlinked; never a token) and unlink an IdP account, refused when it is
 * the user's last way to sign in (`ways-in.ts` says what counts). Like the other server
 * functions they check no CSRF token: call them from protected endpoints.
 */
import type { Adapter, AdapterAccount } from "../../kernel/types/adapters.js"
import { AccountManagementError } from "./errors.js"
import { adapterMethods, type AdapterMethods } from "../../kernel/ports/ports.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import { serverCall } from "../../kernel/run/server-call.js"
import { hasWayIn, removeWayIn, signInMethods, type SignInMethod } from "./ways-in.js"
import { requirePrincipal } from "../../kernel/sessions/principal.js"
import { requireFreshSecondFactor } from "../../kernel/sessions/freshness.js"
import type { AuthConfig } from "../../kernel/types/config.js"

/** A sign-in method linked to the user, as `listLinkedAccounts` shows it. */
export interface LinkedAccount {
  /** The provider's id and display name (the name of a provider no longer configured is its id). */
  provider: string
  name: string
  type: AdapterAccount["type"]
  /**
   * Whether `unlinkLinkedAccount` can unlink it: an IdP account (OAuth/OIDC) can; a passkey's
   * account is removed with its passkey (`deletePasskey`), a password's is the app's to manage.
   */
  unlinkable: boolean
}

async function me<const K extends "listAccountsByUserId" | "unlinkAccount">(req: AuthRequest, ctx: Context, needed: readonly K[]): Promise<{ userId: string; adapter: AdapterMethods<K> & Adapter }> {
  const adapter = adapterMethods(ctx.config.adapter, needed, "Managing linked accounts")
  const { userId } = await requirePrincipal(req, ctx, "Sign in to manage your sign-in methods")
  return { userId, adapter }
}

const unlinkable = (a: Pick<AdapterAccount, "type">) => a.type === "oauth" || a.type === "oidc"

const shown = (ctx: Context, a: AdapterAccount): LinkedAccount => ({
  provider: a.provider,
  name: ctx.config.providerById.get(a.provider)?.name ?? a.provider,
  type: a.type,
  unlinkable: unlinkable(a),
})

async function accountsOf(adapter: Adapter, userId: string): Promise<AdapterAccount[]> {
  return (await adapter.listAccountsByUserId?.(userId)) ?? []
}

/** The sign-in methods linked to the signed-in user (one entry per provider and type). */
export function listLinkedAccounts(request: Request, config: AuthConfig): Promise<LinkedAccount[]> {
  return serverCall(request, config, "session", async (req, ctx) => {
    const { userId, adapter } = await me(req, ctx, ["listAccountsByUserId"])
    const seen = new Set<string>()
    const out: LinkedAccount[] = []
    for (const account of await accountsOf(adapter, userId)) {
      const key = `${account.provider}\u0000${account.type}`
      if (seen.has(key)) continue
      seen.add(key)
      out.push(shown(ctx, account))
    }
    return out
  })
}

/**
 * The signed-in user's ways in (see `ways-in.ts`): IdP accounts, a password (a stored
 * credentials account, or the one this session began with: JWT sessions store none), their passkeys
 * (one entry with a count), e-mail links to a verified address; each with how it is removed. The same
 * enumeration decides what `unlinkLinkedAccount` and `deletePasskey` refuse as the last way in, so a
 * page built on it never shows "no way to sign in" to a user who has one.
 */
export function listSignInMethods(request: Request, config: AuthConfig): Promise<SignInMethod[]> {
  return serverCall(request, config, "session", async (req, ctx) => {
    const principal = await requirePrincipal(req, ctx, "Sign in to see your sign-in methods")
    return signInMethods(ctx, principal.userId, {}, principal)
  })
}

const lastWayIn = () => new AccountManagementError("This is your last way to sign in: link another method before unlinking it", { code: "LAST_SIGN_IN_METHOD" })

/** Why an account of this type is not unlinked here, and where it is removed instead. */
function notUnlinkable(type: AdapterAccount["type"]): AccountManagementError {
  const message =
    type === "webauthn"
      ? "A passkey is removed with the passkey itself: delete it with deletePasskey (POST {basePath}/passkeys, action=delete)"
      : "A password is checked by the app's authorize, not linked: unlinking its account would not stop it signing in"
  return new AccountManagementError(message, { code: "ACCOUNT_NOT_UNLINKABLE", cause: { type } })
}

/**
 * Unlinks the signed-in user's IdP accounts of `provider` (all of them, for a provider linked more
 * than once); resolves what was unlinked. Refused with `LAST_SIGN_IN_METHOD` when no other way to
 * sign in would remain (see `ways-in.ts`; checked again after the write, so concurrent
 * removals cannot both take the last ones), `ACCOUNT_NOT_UNLINKABLE` for a passkey's or a password's
 * account (they are not what signs in), and `ACCOUNT_UNKNOWN` when the user has no account of that provider;
 * for a user with two factors on, `ReauthenticationRequired` without a second factor verified within
 * `twoFactor.freshAge` (see `requireRecentAuthentication`).
 */
export function unlinkLinkedAccount(request: Request, config: AuthConfig, input: { provider: string }): Promise<LinkedAccount> {
  return serverCall(request, config, "session", async (req, ctx) => {
    if (typeof input?.provider !== "string" || input.provider === "") throw new AccountManagementError("Name the provider to unlink", { code: "ACCOUNT_PROVIDER_MISSING" })
    const { userId, adapter } = await me(req, ctx, ["listAccountsByUserId", "unlinkAccount"])
    // Removing a way in: with two factors on, a second factor verified recently (step-up).
    await requireFreshSecondFactor(req, ctx, "Sign in to manage your sign-in methods")
    const accounts = await accountsOf(adapter, userId)
    const leaving = accounts.filter((a) => a.provider === input.provider)
    if (leaving.length === 0) throw new AccountManagementError("No such linked account", { code: "ACCOUNT_UNKNOWN" })
    const refused = leaving.find((a) => !unlinkable(a))
    if (refused) throw notUnlinkable(refused.type)
    if (!(await hasWayIn(ctx, userId, { accounts: accounts.filter((a) => a.provider !== input.provider) }))) throw lastWayIn()
    const remove = async () => {
      for (const { provider, providerAccountId } of leaving) await adapter.unlinkAccount?.({ provider, providerAccountId })
      return { value: shown(ctx, leaving[0]!), restore: () => Promise.all(leaving.map((a) => adapter.linkAccount?.(a))) }
    }
    return removeWayIn(ctx, userId, remove, lastWayIn)
  })
}
