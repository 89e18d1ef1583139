/**
 * The sign-in methods linked to the signed-in user, from Qwik server code: core's server functions
 * on the request as core sees it in this request. No CSRF check of their own: use them in Qwik City
 * actions, whose same-origin check protects the POST.
 */
import { listLinkedAccounts as coreList, unlinkLinkedAccount as coreUnlink, type LinkedAccount } from "@authlib/core"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, requireContext } from "./context.js"

/** The methods linked to the user: `{ provider, name, type }`, never a token. */
export async function listLinkedAccounts(ev: RequestEventCommon): Promise<LinkedAccount[]> {
  const ctx = await requireContext(ev, "listLinkedAccounts")
  return coreList(internalRequest(ev, ctx, "session"), ctx.config)
}

/** Unlinks the user's accounts of `provider` (`AccountManagementError` / `LAST_SIGN_IN_METHOD` for the last way in). */
export async function unlinkLinkedAccount(ev: RequestEventCommon, input: { provider: string }): Promise<LinkedAccount> {
  const ctx = await requireContext(ev, "unlinkLinkedAccount")
  return coreUnlink(internalRequest(ev, ctx, "session"), ctx.config, input)
}
