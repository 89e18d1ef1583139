/**
 * `getAccessToken(ev, providerId)` for Qwik server code (`routeLoader$`, `routeAction$`, `server$`):
 * core's `getAccessToken` on the request as core sees it in this request (its cookies as updated by
 * earlier calls). The token stays on the server: return it to the browser only if you mean to.
 */
import { getAccessToken as coreGetAccessToken, type GetAccessTokenOptions, type ProviderAccessToken } from "@authlib/core"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, requireContext } from "./context.js"

/**
 * A valid access token of the signed-in user for OAuth/OIDC provider `providerId`, refreshed first
 * when it expires within `minValidity` seconds (default 60). Throws core's `SessionRequired` or
 * `RefreshTokenError` (`INVALID_GRANT`: sign in with the provider again).
 *
 * @example
 * ```ts
 * export const useRepos = routeLoader$(async (ev) => {
 *   const { accessToken } = await getAccessToken(ev, "github")
 *   return (await fetch("https://api.github.com/user/repos", { headers: { authorization: `Bearer ${accessToken}` } })).json()
 * })
 * ```
 */
export async function getAccessToken(ev: RequestEventCommon, providerId: string, options?: GetAccessTokenOptions): Promise<ProviderAccessToken> {
  const ctx = await requireContext(ev, "getAccessToken")
  return coreGetAccessToken(internalRequest(ev, ctx, "session"), ctx.config, providerId, options)
}
