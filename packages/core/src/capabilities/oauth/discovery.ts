/**
 * Authorization server metadata for a provider: discovered once per issuer (or `wellKnown` URL)
 * and cached, or assembled from the provider's explicit endpoint URLs.
 */
import * as o from "oauth4webapi"
import { OAuthSignInError } from "../../kernel/errors/errors.js"
import type { OAuthConfig } from "../../kernel/types/providers.js"
import { httpOptions, INSECURE_HINT, isInsecureAllowed, withInsecureHint } from "./insecure.js"
import { acceptTenantTemplate, withTemplate } from "./tenant-issuer.js"

/** How long discovered metadata is reused before it is fetched again. */
export const DISCOVERY_TTL_MS = 60 * 60 * 1000

/** Stands in for the issuer of plain OAuth 2 providers that name none; never compared to input. */
const PLACEHOLDER_ISSUER = "https://authlib.invalid/no-issuer"

interface CacheEntry {
  expires: number
  server: Promise<o.AuthorizationServer>
}
const cache = new Map<string, CacheEntry>()

/** Forgets every cached discovery document (tests, or a deliberate key rollover). */
export function clearDiscoveryCache(): void {
  cache.clear()
}

function endpointUrl(endpoint: string | { url?: string } | undefined): string | undefined {
  return typeof endpoint === "string" ? endpoint : endpoint?.url
}

/** The issuer a `wellKnown` URL belongs to, when the provider does not name it. */
function issuerOfWellKnown(wellKnown: string): string {
  const url = new URL(wellKnown)
  for (const suffix of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]) {
    if (url.pathname.endsWith(suffix)) return `${url.origin}${url.pathname.slice(0, -suffix.length)}`
  }
  throw new OAuthSignInError(`"wellKnown" of this provider needs an "issuer" next to it`, {
    code: "DISCOVERY_ISSUER_UNKNOWN",
    cause: { wellKnown },
  })
}

async function fetchWellKnown(provider: OAuthConfig, wellKnown: string, issuer: string): Promise<o.AuthorizationServer> {
  const url = new URL(wellKnown)
  if (url.protocol !== "https:" && !isInsecureAllowed(provider)) {
    throw new OAuthSignInError(`"wellKnown" must be an https URL (${url.href} is not); ${INSECURE_HINT}`, { code: "DISCOVERY_INSECURE", cause: { wellKnown } })
  }
  const response = await fetch(url, { headers: { accept: "application/json" }, redirect: "manual" })
  return o.processDiscoveryResponse(new URL(issuer), response)
}

async function discover(provider: OAuthConfig): Promise<o.AuthorizationServer> {
  if (provider.wellKnown) {
    return fetchWellKnown(provider, provider.wellKnown, provider.issuer ?? issuerOfWellKnown(provider.wellKnown))
  }
  const issuer = new URL(provider.issuer as string)
  const algorithm = provider.type === "oidc" ? "oidc" : "oauth2"
  const { response, template } = await acceptTenantTemplate(issuer, await o.discoveryRequest(issuer, { algorithm, ...httpOptions(provider) }))
  return withTemplate(await o.processDiscoveryResponse(issuer, response), template)
}

/** Whether the provider's metadata comes from discovery rather than from its own URLs. */
function usesDiscovery(provider: OAuthConfig): boolean {
  if (provider.wellKnown) return true
  if (!provider.issuer) return false
  return !(endpointUrl(provider.authorization) && endpointUrl(provider.token))
}

function cachedDiscovery(provider: OAuthConfig): Promise<o.AuthorizationServer> {
  // The http opt-in is part of the key: a document fetched with it is never served to a provider without it.
  const key = `${provider.type}|${provider.wellKnown ?? ""}|${provider.issuer ?? ""}|${isInsecureAllowed(provider)}`
  const hit = cache.get(key)
  if (hit && hit.expires > Date.now()) return hit.server
  const server = discover(provider)
  cache.set(key, { expires: Date.now() + DISCOVERY_TTL_MS, server })
  // A failed discovery must not stick: the next sign-in tries again.
  server.catch(() => cache.get(key)?.server === server && cache.delete(key))
  return server
}

/** What the log says about a failed discovery: for a plain `http://` URL, the setting that allows it. */
function failureMessage(provider: OAuthConfig, err: unknown): string {
  const message = `Discovery of provider "${provider.id}" failed`
  if (err instanceof OAuthSignInError && err.code === "DISCOVERY_INSECURE") return `${message}: ${err.message}`
  return withInsecureHint(message, err)
}

/**
 * The provider's authorization server metadata. Explicit `authorization`/`token`/`userinfo` URLs
 * and `jwks_endpoint` win over discovered ones, so a preset can patch one endpoint of an issuer.
 */
export async function authorizationServer(provider: OAuthConfig): Promise<o.AuthorizationServer> {
  let discovered: o.AuthorizationServer | undefined
  try {
    discovered = usesDiscovery(provider) ? await cachedDiscovery(provider) : undefined
  } catch (err) {
    throw new OAuthSignInError(failureMessage(provider, err), {
      code: "DISCOVERY_FAILED",
      cause: { provider: provider.id, issuer: provider.issuer, wellKnown: provider.wellKnown, err: err as Error },
    })
  }
  return withExplicitEndpoints(provider, discovered)
}

function withExplicitEndpoints(provider: OAuthConfig, discovered: o.AuthorizationServer | undefined): o.AuthorizationServer {
  const explicit = {
    authorization_endpoint: endpointUrl(provider.authorization),
    token_endpoint: endpointUrl(provider.token),
    userinfo_endpoint: endpointUrl(provider.userinfo),
    jwks_uri: typeof provider.jwks_endpoint === "string" ? provider.jwks_endpoint : undefined,
  }
  const server: Record<string, unknown> = { ...discovered, issuer: discovered?.issuer ?? provider.issuer ?? PLACEHOLDER_ISSUER }
  for (const [key, value] of Object.entries(explicit)) {
    if (value) server[key] = value
  }
  refuseUnsigned(server)
  return server as unknown as o.AuthorizationServer
}

/**
 * An issuer that advertises `none` would have oauth4webapi accept unsigned ID tokens; we never do.
 * Without any other algorithm left, oauth4webapi falls back to RS256.
 */
function refuseUnsigned(server: Record<string, unknown>): void {
  const algs = server.id_token_signing_alg_values_supported
  if (!Array.isArray(algs)) return
  const signed = algs.filter((alg) => alg !== "none")
  if (signed.length) server.id_token_signing_alg_values_supported = signed
  else delete server.id_token_signing_alg_values_supported
}

/** Whether the metadata has a real issuer to compare `iss` values against. */
export function hasKnownIssuer(server: o.AuthorizationServer): boolean {
  return server.issuer !== PLACEHOLDER_ISSUER
}
