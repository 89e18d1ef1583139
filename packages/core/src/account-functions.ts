/**
 * Server functions for the sign-in methods linked to the signed-in user: list them (provider,
 * type; never a token) and unlink one, refused when it is the user's last way to sign in. Like the
 * other server functions they check no CSRF token: call them from protected endpoints.
 *
 * Ways in that count after the unlink: another linked account of a provider still configured (a
 * passkey's `webauthn` account included), a passkey (`listAuthenticatorsByUserId`), or an e-mail
 * address while an e-mail provider is configured.
 */
import type { AdapterAccount } from "./adapters.js"
import { AccountManagementError, MissingAdapterMethods } from "./errors.js"
import type { AuthRequest, Context } from "./http/types.js"
import { serverCall } from "./server-call.js"
import { requirePrincipal } from "./sessions/principal.js"
import type { AuthConfig } from "./types.js"

/** A sign-in method linked to the user, as `listLinkedAccounts` shows it. */
export interface LinkedAccount {
  /** The provider's id and display name (the name of a provider no longer configured is its id). */
  provider: string
  name: string
  type: AdapterAccount["type"]
}

async function me(req: AuthRequest, ctx: Context, needed: readonly ("listAccountsByUserId" | "unlinkAccount")[]): Promise<string> {
  const missing = needed.filter((m) => typeof ctx.config.adapter?.[m] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`Managing linked accounts needs an adapter with ${missing.join(", ")}`, { code: "ADAPTER_METHODS_MISSING", cause: { missing } })
  return (await requirePrincipal(req, ctx, "Sign in to manage your sign-in methods")).userId
}

const shown = (ctx: Context, a: AdapterAccount): LinkedAccount => ({ provider: a.provider, name: ctx.config.providerById.get(a.provider)?.name ?? a.provider, type: a.type })

/** The sign-in methods linked to the signed-in user (one entry per provider and type). */
export function listLinkedAccounts(request: Request, config: AuthConfig): Promise<LinkedAccount[]> {
  return serverCall(request, config, "session", async (req, ctx) => {
    const userId = await me(req, ctx, ["listAccountsByUserId"])
    const seen = new Set<string>()
    const out: LinkedAccount[] = []
    for (const account of await ctx.config.adapter!.listAccountsByUserId!(userId)) {
      const key = `${account.provider}\u0000${account.type}`
      if (seen.has(key)) continue
      seen.add(key)
      out.push(shown(ctx, account))
    }
    return out
  })
}

/** Whether the user keeps a way to sign in once `leaving` is unlinked. */
async function anotherWayIn(ctx: Context, userId: string, remaining: readonly AdapterAccount[]): Promise<boolean> {
  if (remaining.some((a) => ctx.config.providerById.has(a.provider))) return true
  const adapter = ctx.config.adapter!
  if (adapter.listAuthenticatorsByUserId && ctx.config.providers.some((p) => p.type === "webauthn") && (await adapter.listAuthenticatorsByUserId(userId)).length > 0) return true
  if (!ctx.config.providers.some((p) => p.type === "email") || !adapter.getUser) return false
  const user = await adapter.getUser(userId)
  return typeof user?.email === "string" && user.email !== ""
}

/**
 * Unlinks the signed-in user's accounts of `provider` (all of them, for a provider linked more than
 * once); resolves what was unlinked. Refused with `LAST_SIGN_IN_METHOD` when no other way to sign in
 * would remain, and with `ACCOUNT_UNKNOWN` when the user has no account of that provider.
 */
export function unlinkLinkedAccount(request: Request, config: AuthConfig, input: { provider: string }): Promise<LinkedAccount> {
  return serverCall(request, config, "session", async (req, ctx) => {
    if (typeof input?.provider !== "string" || input.provider === "") throw new AccountManagementError("Name the provider to unlink", { code: "ACCOUNT_PROVIDER_MISSING" })
    const userId = await me(req, ctx, ["listAccountsByUserId", "unlinkAccount"])
    const accounts = await ctx.config.adapter!.listAccountsByUserId!(userId)
    const leaving = accounts.filter((a) => a.provider === input.provider)
    if (leaving.length === 0) throw new AccountManagementError("No such linked account", { code: "ACCOUNT_UNKNOWN" })
    const remaining = accounts.filter((a) => a.provider !== input.provider)
    if (!(await anotherWayIn(ctx, userId, remaining)))
      throw new AccountManagementError("This is your last way to sign in: link another method before unlinking it", { code: "LAST_SIGN_IN_METHOD" })
    for (const account of leaving) await ctx.config.adapter!.unlinkAccount!({ provider: account.provider, providerAccountId: account.providerAccountId })
    return shown(ctx, leaving[0]!)
  })
}
