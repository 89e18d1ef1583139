/**
 * `getAccessToken(ev, providerId)` for Qwik server code (`routeLoader$`, `routeAction$`, `server$`):
 * core's `getAccessToken` on the request as core sees it in this request (its cookies as updated by
 * earlier calls). The token stays on the server: return it to the browser only if you mean to.
 */
import type { GetAccessTokenOptions, ProviderAccessToken } from "@authlib/core"
import { accessTokenResult, refreshErrorCookies } from "@authlib/core/internal"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, requireContext } from "./context.js"
import { applyCookies } from "./cookies.js"

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
  let result: Awaited<ReturnType<typeof accessTokenResult>>
  try {
    result = await accessTokenResult(internalRequest(ev, ctx, "session"), ctx.config, providerId, options)
  } catch (err) {
    // A refused refresh token marks a JWT session (`session.error`): that cookie goes out too.
    const marked = refreshErrorCookies(err)
    if (marked.length) {
      applyCookies(ev, marked)
      ctx.session = undefined
    }
    throw err
  }
  const { token, cookies } = result
  // Tokens kept in the session (`session.providerTokens`): the refreshed session goes out with the response.
  if (cookies.length) {
    applyCookies(ev, cookies)
    ctx.session = undefined
  }
  return token
}
