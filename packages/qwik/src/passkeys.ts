/**
 * Managing the signed-in user's passkeys from Qwik server code (`routeLoader$`, `routeAction$`,
 * `server$`): core's server functions, given the request as core sees it (its cookies as updated
 * by earlier calls in this request, so a passkey added or a session refreshed a moment ago counts).
 *
 * Like core's, they check no CSRF token: use them in Qwik City actions, whose same-origin check
 * protects the POST (keep `checkOrigin` on), or behind your own protection. Errors are thrown as
 * core's `AuthError`s (`SessionRequired`, `PasskeyManagementError` with its `code`, ...).
 */
import { deletePasskey as coreDelete, listPasskeys as coreList, renamePasskey as coreRename, type PasskeyInfo } from "@authlib/core"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, requireContext } from "./context.js"

async function coreRequest(ev: RequestEventCommon, caller: string) {
  const ctx = await requireContext(ev, caller)
  return { request: internalRequest(ev, ctx, "passkeys"), config: ctx.config }
}

/** The signed-in user's passkeys (id, name, created, last used, backed up; never a key). */
export async function listPasskeys(ev: RequestEventCommon): Promise<PasskeyInfo[]> {
  const { request, config } = await coreRequest(ev, "listPasskeys")
  return coreList(request, config)
}

/** Renames one of the signed-in user's passkeys (at most 64 characters); resolves it renamed. */
export async function renamePasskey(ev: RequestEventCommon, input: { id: string; name: string }): Promise<PasskeyInfo> {
  const { request, config } = await coreRequest(ev, "renamePasskey")
  return coreRename(request, config, input)
}

/** Deletes one of the signed-in user's passkeys (refused when it is their last way to sign in). */
export async function deletePasskey(ev: RequestEventCommon, input: { id: string }): Promise<PasskeyInfo> {
  const { request, config } = await coreRequest(ev, "deletePasskey")
  return coreDelete(request, config, input)
}
