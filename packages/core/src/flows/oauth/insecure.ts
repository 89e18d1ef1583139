/**
 * The one switch that lets the OAuth flow talk to `http://` endpoints. oauth4webapi refuses plain
 * HTTP by default; local OpenID providers in tests and development speak nothing else.
 *
 * It is a named marker on the provider config, never a boolean, so it cannot be set from JSON or
 * environment variables, and it only relaxes the scheme check for `http:` URLs: `https:` endpoints
 * are validated exactly as without it.
 */
import { allowInsecureRequests } from "oauth4webapi"

/**
 * Put `[allowInsecureOAuthRequests]: true` on a provider config to allow `http://` issuer, token,
 * userinfo and JWKS URLs. For local development and tests only.
 */
export const allowInsecureOAuthRequests: unique symbol = Symbol.for("authlib.allow-insecure-oauth-requests")

/** Whether a provider config carries the marker. */
export function isInsecureAllowed(provider: object): boolean {
  return (provider as { [allowInsecureOAuthRequests]?: unknown })[allowInsecureOAuthRequests] === true
}

/** The oauth4webapi request options for a provider: empty unless the marker is set. */
export function httpOptions(provider: object): { [allowInsecureRequests]?: true } {
  // oauth4webapi marks this option deprecated to make it stand out; that is the intent here too.
  return isInsecureAllowed(provider) ? { [allowInsecureRequests]: true } : {}
}
