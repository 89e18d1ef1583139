import { ProviderRequestError } from "../errors.js"

/** Reads a provider endpoint's URL whether the config gives a string or an endpoint handler. */
export function endpointUrl(endpoint: unknown): string | undefined {
  if (typeof endpoint === "string") return endpoint
  const url = (endpoint as { url?: unknown } | undefined)?.url
  return typeof url === "string" ? url : undefined
}

/**
 * GETs a provider API with the user's access token and returns its JSON body. Anything but a 2xx
 * JSON answer is a {@link ProviderRequestError}: a profile must never be built from an error page.
 */
export async function fetchJson(provider: string, url: string, accessToken: string | undefined, headers: Record<string, string> = {}): Promise<unknown> {
  if (!accessToken) {
    throw new ProviderRequestError(`${provider}: no access_token to call ${url} with`, { code: "ACCESS_TOKEN_MISSING", cause: { provider, url } })
  }
  let response: Response
  try {
    response = await fetch(url, { headers: { Accept: "application/json", ...headers, Authorization: `Bearer ${accessToken}` } })
  } catch (err) {
    throw new ProviderRequestError(`${provider}: request to ${url} failed`, { code: "NETWORK_ERROR", cause: { provider, url, err: err as Error } })
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new ProviderRequestError(`${provider}: ${url} answered ${response.status}`, { code: "HTTP_ERROR", cause: { provider, url, status: response.status } })
  }
  try {
    return await response.json()
  } catch (err) {
    throw new ProviderRequestError(`${provider}: ${url} did not answer JSON`, { code: "INVALID_JSON", cause: { provider, url, err: err as Error } })
  }
}
