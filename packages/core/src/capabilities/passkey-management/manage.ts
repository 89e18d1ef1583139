/**
 * Managing the signed-in user's passkeys: list, rename, delete. Shared by the `passkeys` route
 * (HTTP, CSRF-checked there) and the server functions (`listPasskeys`, ...). Each operation checks,
 * in this order: a passkey provider is configured (else `UnknownAction`), the adapter has the
 * methods it needs (else `MissingAdapter`, only when the operation is used), the request has a
 * session (else `SessionRequired`), for a deletion by a user with two factors on a second factor
 * verified within `twoFactor.freshAge` (else `ReauthenticationRequired`), then its input.
 *
 * Ownership: every operation starts from the user's own authenticators
 * (`listAuthenticatorsByUserId`), so another user's passkey is simply not among them and answers
 * exactly as an unknown id. The adapter writes are keyed by credential id, after that check.
 */
import type { Adapter, AdapterAuthenticator } from "../../kernel/types/adapters.js"
import { UnknownAction, type ErrorCode } from "../../kernel/errors/errors.js"
import { PasskeyManagementError } from "./errors.js"
import { adapterMethods, type AdapterMethods } from "../../kernel/ports/ports.js"
import { credentialIdToStored } from "../webauthn/index.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"
import { requirePrincipal } from "../../kernel/sessions/principal.js"
import { requireFreshSecondFactor } from "../../kernel/sessions/freshness.js"
import { cleanPasskeyName, MAX_PASSKEY_NAME_LENGTH, passkeyInfo, type PasskeyInfo } from "./info.js"
import { assertAnotherWayIn, deletePasskeyKeepingAWayIn, unlinkPasskeyAccount } from "./last-method.js"

/** The adapter methods each operation needs (checked when it runs, not at start-up). */
export const PASSKEY_METHODS = {
  list: ["listAuthenticatorsByUserId"],
  rename: ["listAuthenticatorsByUserId", "updateAuthenticator"],
  delete: ["listAuthenticatorsByUserId", "deleteAuthenticator"],
} as const satisfies Record<string, ReadonlyArray<keyof Adapter>>

type Operation = keyof typeof PASSKEY_METHODS

interface Start<K extends keyof Adapter> {
  providers: WebAuthnConfig[]
  adapter: AdapterMethods<K>
  userId: string
}

const refuse = (code: ErrorCode<"PasskeyManagementError">, message: string, cause: Record<string, unknown> = {}) =>
  new PasskeyManagementError(message, { code, cause })

async function start<O extends Operation>(req: AuthRequest, ctx: Context, operation: O): Promise<Start<(typeof PASSKEY_METHODS)[O][number]>> {
  const providers = ctx.config.providers.filter((p): p is WebAuthnConfig => p.type === "webauthn")
  if (providers.length === 0) throw new UnknownAction('Managing passkeys needs a passkey provider (type "webauthn")', { code: "ACTION_UNAVAILABLE" })
  const adapter = adapterMethods(ctx.config.adapter, PASSKEY_METHODS[operation], `Passkey management (${operation})`) as unknown as AdapterMethods<(typeof PASSKEY_METHODS)[O][number]>
  const { userId } = await requirePrincipal(req, ctx, "Sign in to manage passkeys")
  return { providers, adapter, userId }
}

function idOf(input: unknown): string {
  if (typeof input !== "string" || input === "") throw refuse("PASSKEY_ID_MISSING", '"id" (the passkey\'s credential id) is missing')
  return input
}

/** The passkey of `owned` that the browser's `id` names; `PASSKEY_UNKNOWN` when none does. */
function pick(owned: readonly AdapterAuthenticator[], id: string): AdapterAuthenticator {
  const wanted = credentialIdToStored(id)
  const found = wanted === undefined ? undefined : owned.find((a) => (credentialIdToStored(a.credentialID) ?? a.credentialID) === wanted)
  if (!found) throw unknown(id)
  return found
}

const unknown = (id: string) => refuse("PASSKEY_UNKNOWN", "No passkey of yours has this id", { id: id.slice(0, 200) })

/** The signed-in user's passkeys, in the adapter's order. */
export async function listOwnPasskeys(req: AuthRequest, ctx: Context): Promise<PasskeyInfo[]> {
  const { adapter, userId } = await start(req, ctx, "list")
  return (await adapter.listAuthenticatorsByUserId(userId)).map(passkeyInfo)
}

/** Renames one of the signed-in user's passkeys; resolves it as renamed. */
export async function renameOwnPasskey(req: AuthRequest, ctx: Context, input: { id?: unknown; name?: unknown }): Promise<PasskeyInfo> {
  const { adapter, userId } = await start(req, ctx, "rename")
  const id = idOf(input.id)
  const name = cleanPasskeyName(input.name)
  if (name === undefined) throw refuse("PASSKEY_NAME_INVALID", `"name" must be text of 1 to ${MAX_PASSKEY_NAME_LENGTH} visible characters`)
  const target = pick(await adapter.listAuthenticatorsByUserId(userId), id)
  const renamed = await adapter.updateAuthenticator(target.credentialID, { name })
  if (!renamed) throw unknown(id)
  return passkeyInfo(renamed)
}

/**
 * Deletes one of the signed-in user's passkeys (refused when it is their last way to sign in, see
 * `last-method.ts`) and unlinks its `webauthn` account; resolves it as it was.
 */
export async function deleteOwnPasskey(req: AuthRequest, ctx: Context, input: { id?: unknown }): Promise<PasskeyInfo> {
  const { providers, adapter, userId } = await start(req, ctx, "delete")
  // Removing a way in: with two factors on, a second factor verified recently (step-up).
  await requireFreshSecondFactor(req, ctx, "Sign in to manage passkeys")
  const id = idOf(input.id)
  const owned = await adapter.listAuthenticatorsByUserId(userId)
  const target = pick(owned, id)
  const others = owned.filter((a) => a !== target)
  const accounts = await assertAnotherWayIn(ctx, providers, userId, others)
  // One atomic delete: of concurrent deletions of this passkey exactly one gets it back.
  const deleted = await deletePasskeyKeepingAWayIn(ctx, providers, userId, target.credentialID)
  if (!deleted) throw unknown(id)
  await unlinkPasskeyAccount(ctx, providers, userId, deleted, others, accounts)
  return passkeyInfo(deleted)
}
