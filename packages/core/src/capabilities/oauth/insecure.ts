/**
 * The one switch that lets the OAuth flow talk to `http://` endpoints. oauth4webapi refuses plain
 * HTTP by default; local OpenID providers in tests and development speak nothing else.
 *
 * It is a named marker on the provider config, never a boolean, so it cannot be set from JSON or
 * environment variables, and it only relaxes the scheme check for `http:` URLs: `https:` endpoints
 * are validated exactly as without it.
 */
import { allowInsecureRequests, HTTP_REQUEST_FORBIDDEN, OperationProcessingError } from "oauth4webapi"

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

/**
 * What to do about a plain `http://` URL refused: the marker's name and where it goes, so the
 * server log answers the question a developer with a local provider has.
 */
export const INSECURE_HINT =
  'for local development, put [allowInsecureOAuthRequests]: true (exported from "@authlib/core") on the provider config; production issuers must be https'

/** The refused URL when `err` is oauth4webapi's "only requests to HTTPS are allowed", else undefined. */
export function refusedHttpUrl(err: unknown): string | undefined {
  if (!(err instanceof OperationProcessingError) || err.code !== HTTP_REQUEST_FORBIDDEN) return undefined
  return err.cause instanceof URL ? err.cause.href : String(err.cause)
}

/** `message`, followed by the hint when `err` is oauth4webapi's refusal of an `http://` URL. */
export function withInsecureHint(message: string, err: unknown): string {
  const url = refusedHttpUrl(err)
  return url === undefined ? message : `${message}: ${url} is not https (only requests to HTTPS are allowed); ${INSECURE_HINT}`
}
