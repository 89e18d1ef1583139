/**
 * Step one of the OAuth/OIDC flow: the authorization URL and the check cookies that protect it.
 */
import * as o from "oauth4webapi"
import type { Cookie } from "../../kernel/cookies/serialize.js"
import { InvalidEndpoints, OAuthSignInError } from "../../kernel/errors/errors.js"
import { activeChecks, redirectUri, type OAuthFlowContext } from "./context.js"
import { createCheckCookie } from "./checks.js"
import { authorizationServer } from "./discovery.js"
import { createProxyState } from "./redirect-proxy.js"
import { envStem } from "../../kernel/config/env.js"

/** Extra authorization parameters, as the sign-in call may pass them (spec 4, `authorizationParams`). */
export type AuthorizationParamsInput = string | URLSearchParams | Record<string, string> | undefined

/**
 * Parameters the flow owns. A caller's value for one of these is dropped: letting a sign-in form
 * choose the `redirect_uri` or the PKCE challenge would undo the checks.
 */
const PROTECTED = ["client_id", "redirect_uri", "response_type", "state", "nonce", "code_challenge", "code_challenge_method"]

export interface AuthorizationRequest {
  /** Where to send the user. */
  url: string
  /** Check cookies to set with the redirect. */
  cookies: Cookie[]
}

function callerParams(input: AuthorizationParamsInput): URLSearchParams {
  const params = new URLSearchParams(input ?? undefined)
  for (const name of PROTECTED) params.delete(name)
  return params
}

function providerParams(flow: OAuthFlowContext): Record<string, string> {
  const { authorization } = flow.provider
  return typeof authorization === "object" ? (authorization.params ?? {}) : {}
}

function baseUrl(server: o.AuthorizationServer, flow: OAuthFlowContext): URL {
  if (!flow.provider.clientId) {
    throw new OAuthSignInError(`Provider "${flow.provider.id}" has no "clientId" (set it, or AUTH_${envStem(flow.provider.id)}_ID)`, {
      code: "CLIENT_ID_MISSING",
      cause: { provider: flow.provider.id },
    })
  }
  if (!server.authorization_endpoint) {
    throw new InvalidEndpoints(`Provider "${flow.provider.id}" has no authorization endpoint`, {
      code: "AUTHORIZATION_ENDPOINT_MISSING",
      cause: { provider: flow.provider.id },
    })
  }
  return new URL(server.authorization_endpoint)
}

/** Sets provider parameters, then the caller's, then the ones the flow owns, in that order. */
function applyParams(url: URL, flow: OAuthFlowContext, extra: AuthorizationParamsInput): void {
  const set = (params: Iterable<[string, string]>) => {
    for (const [key, value] of params) url.searchParams.set(key, value)
  }
  set(Object.entries(providerParams(flow)))
  set(callerParams(extra))
  if (flow.provider.type === "oidc" && !url.searchParams.has("scope")) url.searchParams.set("scope", "openid profile email")
  set([
    ["response_type", "code"],
    ["client_id", flow.provider.clientId as string],
    ["redirect_uri", redirectUri(flow)],
  ])
}

/** Mints each active check, adds its parameter to the URL and returns its cookie. */
async function applyChecks(url: URL, flow: OAuthFlowContext): Promise<Cookie[]> {
  const cookies: Cookie[] = []
  for (const check of activeChecks(flow)) {
    if (check === "pkce") {
      const verifier = o.generateRandomCodeVerifier()
      url.searchParams.set("code_challenge", await o.calculatePKCECodeChallenge(verifier))
      url.searchParams.set("code_challenge_method", "S256")
      cookies.push(await createCheckCookie(flow, "pkce", verifier))
    } else {
      const value = check === "nonce" ? o.generateRandomNonce() : await stateValue(flow)
      url.searchParams.set(check, value)
      cookies.push(await createCheckCookie(flow, check, value))
    }
  }
  return cookies
}

/** A random state, or with a redirect proxy an encrypted one carrying this deployment's callback URL. */
function stateValue(flow: OAuthFlowContext): Promise<string> | string {
  return flow.redirectProxyUrl ? createProxyState(flow.secret, flow.oauthCallbackUrl) : o.generateRandomState()
}

/**
 * Builds the authorization redirect for a provider: its endpoint (discovered or configured), its
 * parameters, the caller's extra parameters, and the PKCE (S256 only), state and nonce checks.
 */
export async function authorizationRequest(flow: OAuthFlowContext, extra?: AuthorizationParamsInput): Promise<AuthorizationRequest> {
  const server = await authorizationServer(flow.provider)
  const url = baseUrl(server, flow)
  applyParams(url, flow, extra)
  const cookies = await applyChecks(url, flow)
  flow.logger.debug("OAUTH_AUTHORIZATION_URL", { provider: flow.provider.id, url: url.origin + url.pathname })
  return { url: url.href, cookies }
}
