/**
 * Deleting a passkey must leave its owner a way to sign in, unless the app allows otherwise; and
 * the passkey's `webauthn` account goes with it.
 *
 * Ways in that count: another passkey; another linked account (any type but `webauthn`) of a
 * provider still configured, read with the adapter's optional `listAccountsByUserId`; an e-mail
 * address while an e-mail provider is configured. Without `listAccountsByUserId` linked accounts
 * cannot be seen, so the rule refuses more, never less.
 */
import type { AdapterAccount, AdapterAuthenticator } from "../adapters.js"
import { PasskeyManagementError } from "../errors.js"
import type { Context } from "../http/types.js"
import { logError } from "../logger.js"
import type { WebAuthnConfig } from "../providers/types.js"

/** Whether the user has an address an e-mail provider of this configuration can send a link to. */
async function reachableByEmail(ctx: Context, userId: string): Promise<boolean> {
  if (!ctx.config.providers.some((p) => p.type === "email")) return false
  const user = await ctx.config.adapter!.getUser!(userId)
  return typeof user?.email === "string" && user.email !== ""
}

function linkedWayIn(ctx: Context, accounts: readonly AdapterAccount[] | undefined): boolean {
  return accounts?.some((a) => a.type !== "webauthn" && ctx.config.providerById.has(a.provider)) ?? false
}

/**
 * Throws `LAST_SIGN_IN_METHOD` when deleting one passkey (the user keeps `others`) would leave no
 * way in and not every passkey provider has `allowDeletingLastPasskey`. Resolves the user's
 * accounts when the adapter lists them (for {@link unlinkPasskeyAccount}).
 */
export async function assertAnotherWayIn(ctx: Context, providers: readonly WebAuthnConfig[], userId: string, others: readonly AdapterAuthenticator[]): Promise<AdapterAccount[] | undefined> {
  const list = ctx.config.adapter!.listAccountsByUserId
  const accounts = list ? await list(userId) : undefined
  if (others.length > 0 || providers.every((p) => p.allowDeletingLastPasskey === true)) return accounts
  if (linkedWayIn(ctx, accounts) || (await reachableByEmail(ctx, userId))) return accounts
  throw new PasskeyManagementError("This passkey is your last way to sign in: add another passkey or sign-in method before deleting it", {
    code: "LAST_SIGN_IN_METHOD",
    cause: { accountsListed: accounts !== undefined },
  })
}

/** The user's `webauthn` accounts of `deleted`: from the listed accounts, else looked up per passkey provider. */
async function accountKeys(ctx: Context, providers: readonly WebAuthnConfig[], userId: string, deleted: AdapterAuthenticator, accounts: readonly AdapterAccount[] | undefined) {
  const providerAccountId = deleted.providerAccountId
  if (accounts) return accounts.filter((a) => a.type === "webauthn" && a.providerAccountId === providerAccountId)
  const keys: Array<{ provider: string; providerAccountId: string }> = []
  for (const p of providers) {
    const owner = await ctx.config.adapter!.getUserByAccount!({ provider: p.id, providerAccountId })
    if (owner?.id === userId) keys.push({ provider: p.id, providerAccountId })
  }
  return keys
}

/**
 * Unlinks the `webauthn` account of a deleted passkey (when the adapter has `unlinkAccount` and no
 * other passkey of the user shares the account), so no account is left pointing at nothing. The
 * passkey is already gone: a failure here is logged, not answered.
 */
export async function unlinkPasskeyAccount(ctx: Context, providers: readonly WebAuthnConfig[], userId: string, deleted: AdapterAuthenticator, others: readonly AdapterAuthenticator[], accounts: readonly AdapterAccount[] | undefined): Promise<void> {
  const unlink = ctx.config.adapter!.unlinkAccount
  if (!unlink || others.some((a) => a.providerAccountId === deleted.providerAccountId)) return
  try {
    for (const { provider, providerAccountId } of await accountKeys(ctx, providers, userId, deleted, accounts)) await unlink({ provider, providerAccountId })
  } catch (err) {
    logError(ctx.config.logger, err)
  }
}
