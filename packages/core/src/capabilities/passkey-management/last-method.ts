/**
 * Deleting a passkey must leave its owner a way to sign in (see `linked-accounts/ways-in.ts`), unless the app allows
 * otherwise, also when two removals race; and the passkey's `webauthn` account goes with it.
 */
import { adapterMethods } from "../../kernel/ports/ports.js"
import type { AdapterAccount, AdapterAuthenticator } from "../../kernel/types/adapters.js"
import { PasskeyManagementError } from "./errors.js"
import type { Context } from "../../kernel/types/http.js"
import { logError } from "../../kernel/errors/logger.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"
import { hasWayIn, removeWayIn } from "../linked-accounts/index.js"

const lastWayIn = (accountsListed: boolean) =>
  new PasskeyManagementError("This passkey is your last way to sign in: add another passkey or sign-in method before deleting it", {
    code: "LAST_SIGN_IN_METHOD",
    cause: { accountsListed },
  })

/**
 * Throws `LAST_SIGN_IN_METHOD` when deleting one passkey (the user keeps `others`) would leave no
 * way in (see `linked-accounts/ways-in.ts`) and not every passkey provider has `allowDeletingLastPasskey`. Resolves
 * the user's accounts when the adapter lists them (for {@link unlinkPasskeyAccount}).
 */
export async function assertAnotherWayIn(ctx: Context, providers: readonly WebAuthnConfig[], userId: string, others: readonly AdapterAuthenticator[]): Promise<AdapterAccount[] | undefined> {
  const list = ctx.config.adapter?.listAccountsByUserId
  const accounts = list ? await list(userId) : undefined
  if (mayLeaveNone(providers) || (await hasWayIn(ctx, userId, { accounts, passkeys: others }))) return accounts
  throw lastWayIn(accounts !== undefined)
}

const mayLeaveNone = (providers: readonly WebAuthnConfig[]) => providers.every((p) => p.allowDeletingLastPasskey === true)

/**
 * Deletes the passkey `credentialID` of `userId` (null when it is already gone). Unless the app allows
 * leaving none, the deletion is checked again once written: when a concurrent removal left the user
 * no way in, the passkey is stored again and the deletion refused (`LAST_SIGN_IN_METHOD`).
 */
export async function deletePasskeyKeepingAWayIn(ctx: Context, providers: readonly WebAuthnConfig[], userId: string, credentialID: string): Promise<AdapterAuthenticator | null> {
  const { deleteAuthenticator, createAuthenticator } = ctx.config.adapter ?? {}
  if (!deleteAuthenticator || !createAuthenticator) return null
  const remove = async () => {
    const deleted = await deleteAuthenticator(credentialID)
    return { value: deleted, restore: async () => (deleted ? createAuthenticator(deleted) : undefined) }
  }
  if (mayLeaveNone(providers)) return (await remove()).value
  return removeWayIn(ctx, userId, remove, () => lastWayIn(true))
}

/** The user's `webauthn` accounts of `deleted`: from the listed accounts, else looked up per passkey provider. */
async function accountKeys(ctx: Context, providers: readonly WebAuthnConfig[], userId: string, deleted: AdapterAuthenticator, accounts: readonly AdapterAccount[] | undefined) {
  const providerAccountId = deleted.providerAccountId
  if (accounts) return accounts.filter((a) => a.type === "webauthn" && a.providerAccountId === providerAccountId)
  const keys: Array<{ provider: string; providerAccountId: string }> = []
  for (const p of providers) {
    const owner = await adapterMethods(ctx.config.adapter, ["getUserByAccount"], "Deleting a passkey").getUserByAccount({ provider: p.id, providerAccountId })
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
  const unlink = ctx.config.adapter?.unlinkAccount
  if (!unlink || others.some((a) => a.providerAccountId === deleted.providerAccountId)) return
  try {
    for (const { provider, providerAccountId } of await accountKeys(ctx, providers, userId, deleted, accounts)) await unlink({ provider, providerAccountId })
  } catch (err) {
    logError(ctx.config.logger, err)
  }
}
