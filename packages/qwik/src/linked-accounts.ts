/**
 * The sign-in methods linked to the signed-in user, from Qwik server code: core's server functions
 * on the request as core sees it in this request. No CSRF check of their own: use them in Qwik City
 * actions, whose same-origin check protects the POST.
 */
import { listLinkedAccounts as coreList, listSignInMethods as coreMethods, unlinkLinkedAccount as coreUnlink, type LinkedAccount, type SignInMethod } from "@authlib/core"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, requireContext } from "./context.js"

/**
 * The user's ways in (IdP accounts, password, passkeys, e-mail links to a verified address), each
 * with how it is removed: the same list core's last-way-in rule counts.
 */
export async function listSignInMethods(ev: RequestEventCommon): Promise<SignInMethod[]> {
  const ctx = await requireContext(ev, "listSignInMethods")
  return coreMethods(internalRequest(ev, ctx, "session"), ctx.config)
}

/** The accounts linked to the user: `{ provider, name, type, unlinkable }`, never a token. */
export async function listLinkedAccounts(ev: RequestEventCommon): Promise<LinkedAccount[]> {
  const ctx = await requireContext(ev, "listLinkedAccounts")
  return coreList(internalRequest(ev, ctx, "session"), ctx.config)
}

/** Unlinks the user's accounts of `provider` (`AccountManagementError` / `LAST_SIGN_IN_METHOD` for the last way in). */
export async function unlinkLinkedAccount(ev: RequestEventCommon, input: { provider: string }): Promise<LinkedAccount> {
  const ctx = await requireContext(ev, "unlinkLinkedAccount")
  return coreUnlink(internalRequest(ev, ctx, "session"), ctx.config, input)
}
