/**
 * The provider a URL names (`signin/:provider`, `callback/:provider`, `webauthn-options/:provider`).
 */
import type { ResolvedConfig } from "../types/resolved-config.js"
import { UnknownAction } from "../errors/errors.js"
import type { ProviderConfig } from "../types/providers.js"

/** The configured provider `providerId`, or `UnknownAction` (404) for a missing or unknown id. */
export function providerOf(action: string, providerId: string | undefined, config: ResolvedConfig): ProviderConfig {
  if (!providerId) throw new UnknownAction(`${action} needs a provider id in the path`, { code: "PROVIDER_ID_MISSING" })
  const provider = config.providerById.get(providerId)
  // An id nobody configured is a URL that does not exist (404), not a server fault worth an error log.
  if (!provider) throw new UnknownAction(`No provider "${providerId.slice(0, 100)}" is configured`, { code: "PROVIDER_UNKNOWN", cause: { provider: providerId.slice(0, 100) } })
  return provider
}
