/**
 * Step two of the OAuth/OIDC flow: validate what the provider sent back, one oauth4webapi step per
 * function, then build the sign-in. Every check runs before any token is requested: a callback
 * with a missing or foreign check cookie never reaches the token endpoint.
 */
import * as o from "oauth4webapi"
import { InvalidCheck, OAuthCallbackError } from "../../kernel/errors/errors.js"
import type { OAuthConfig, TokenSet } from "../../kernel/types/providers.js"
import type { Profile } from "../../kernel/types/config.js"
import type { CheckName } from "../../kernel/errors/errors.js"
import { readCheckCookie } from "./checks.js"
import { clientAuthOf, clientOf } from "./client.js"
import { redirectUri, type OAuthFlowContext } from "./context.js"
import { hasKnownIssuer } from "./discovery.js"
import { httpOptions } from "./insecure.js"
import { forIdToken } from "./tenant-issuer.js"
import { step } from "./map-error.js"

/** The check values the callback compares against, read from the check cookies. */
export interface CheckValues {
  state?: string
  codeVerifier?: string
  nonce?: string
}

/** Reads every active check cookie; throws `InvalidCheck` before any network call if one is bad. */
export async function readChecks(flow: OAuthFlowContext, checks: readonly CheckName[], cookies: Record<string, string | undefined>): Promise<CheckValues> {
  const values: CheckValues = {}
  if (checks.includes("state")) values.state = await readCheckCookie(flow, "state", cookies)
  if (checks.includes("pkce")) values.codeVerifier = await readCheckCookie(flow, "pkce", cookies)
  if (checks.includes("nonce")) values.nonce = await readCheckCookie(flow, "nonce", cookies)
  return values
}

function compareState(flow: OAuthFlowContext, params: URLSearchParams, expected: string | undefined): void {
  if (expected === undefined) return
  const received = params.get("state")
  if (received === expected) return
  throw new InvalidCheck(`state check failed: ${received === null ? "no state in the response" : "state does not match"}`, {
    code: received === null ? "CHECK_STATE_MISSING" : "CHECK_STATE_MISMATCH",
    cause: { check: "state", provider: flow.provider.id },
  })
}

/**
 * RFC 6749 4.1.2 and RFC 9207: the response is for this client (state), from this issuer (`iss`,
 * required when the server says it sends one) and not an error. Providers without a known issuer
 * cannot be compared, so a stray `iss` is dropped for them.
 */
export function validateAuthorizationResponse(
  flow: OAuthFlowContext,
  server: o.AuthorizationServer,
  params: URLSearchParams,
  checks: CheckValues,
): Promise<URLSearchParams> {
  compareState(flow, params, checks.state)
  const input = new URLSearchParams(params)
  if (!hasKnownIssuer(server)) input.delete("iss")
  const expectedState = checks.state ?? o.expectNoState
  return step("AUTHORIZATION_RESPONSE", flow.provider.id, () => o.validateAuthResponse(server, clientOf(flow.provider), input, expectedState))
}

function tokenHandler(provider: OAuthConfig) {
  return typeof provider.token === "object" ? provider.token : undefined
}

/** The token endpoint call: the provider's own `token.request`, or oauth4webapi's code grant. */
async function requestTokens(flow: OAuthFlowContext, server: o.AuthorizationServer, params: URLSearchParams, checks: CheckValues): Promise<Response> {
  const { provider } = flow
  const handler = tokenHandler(provider)
  if (handler?.request) {
    const checkValues = { code_verifier: checks.codeVerifier, state: checks.state, nonce: checks.nonce }
    const { tokens } = await handler.request({ params: Object.fromEntries(params), provider, checks: checkValues })
    return Response.json(tokens)
  }
  const verifier = checks.codeVerifier ?? o.nopkce
  const options = { ...httpOptions(provider), ...(handler?.params ? { additionalParameters: handler.params } : {}) }
  return o.authorizationCodeGrantRequest(server, clientOf(provider), clientAuthOf(provider), params, redirectUri(flow), verifier, options)
}

/**
 * A plain OAuth 2 provider without a known issuer may still return an `id_token`; with nothing to
 * validate it against, it is kept for the account but left out of the response oauth4webapi checks.
 */
function setAsideUncheckableIdToken(flow: OAuthFlowContext, server: o.AuthorizationServer, response: Response, body: TokenBody): [Response, string | undefined] {
  if (flow.provider.type === "oidc" || hasKnownIssuer(server) || typeof body?.id_token !== "string") return [response, undefined]
  const { id_token, ...rest } = body
  return [Response.json(rest, { status: response.status, headers: response.headers }), id_token]
}

type TokenBody = Record<string, unknown> | undefined

/** The token response body, read from a copy so oauth4webapi still gets the original. */
async function peek(response: Response): Promise<TokenBody> {
  if (!response.ok) return undefined
  return (await response.clone().json().catch(() => undefined)) as TokenBody
}

/** The validated token response and the Response it came from (needed to check the ID token signature). */
export interface TokenResult {
  /** The metadata the ID token was validated with (a tenant template filled in, see tenant-issuer.ts). */
  server: o.AuthorizationServer
  tokens: TokenSet
  /** The ID token's claims, validated except for the signature. */
  claims: o.IDToken | undefined
  response: Response
}

/**
 * Exchanges the code (PKCE verifier, client authentication per `client.token_endpoint_auth_method`)
 * and validates the answer. For OIDC an ID token is required and its iss, aud, exp, iat, azp and
 * nonce are checked here.
 */
export async function exchangeCode(flow: OAuthFlowContext, server: o.AuthorizationServer, params: URLSearchParams, checks: CheckValues): Promise<TokenResult> {
  const { provider } = flow
  return step("TOKEN_RESPONSE", provider.id, async () => {
    let response = await requestTokens(flow, server, params, checks)
    response = (await tokenHandler(provider)?.conform?.(response)) ?? response
    const body = await peek(response)
    const [checked, uncheckable] = setAsideUncheckableIdToken(flow, server, response, body)
    const options: o.ProcessAuthorizationCodeResponseOptions =
      provider.type === "oidc" ? { expectedNonce: checks.nonce ?? o.expectNoNonce, requireIdToken: true } : {}
    const tokenServer = forIdToken(server, uncheckable ? undefined : (body?.id_token as string | undefined))
    const tokens = await o.processAuthorizationCodeResponse(tokenServer, clientOf(provider), checked, options)
    const claims = o.getValidatedIdTokenClaims(tokens)
    const kept = uncheckable ? { ...tokens, id_token: uncheckable } : { ...tokens }
    return { server: tokenServer, tokens: kept, claims, response: checked }
  })
}

/** JWKS caches per JWKS URL (one per issuer; tenants of a multi-tenant issuer share theirs). */
const jwksCaches = new Map<string, o.JWKSCacheInput>()

/**
 * Verifies the ID token's signature with the issuer's JWKS (cached; refetched by
 * oauth4webapi when an unknown key id shows up). Returns the validated claims, if any.
 */
export async function verifyIdToken(flow: OAuthFlowContext, result: TokenResult): Promise<o.IDToken | undefined> {
  const { claims, server } = result
  if (!claims) return undefined
  // A plain OAuth 2 provider's identity comes from userinfo; its ID token (claims checked above)
  // is only stored, and without a JWKS there is nothing to check a signature against.
  if (flow.provider.type === "oauth" && !server.jwks_uri) return claims
  const key = server.jwks_uri ?? server.issuer
  let cache = jwksCaches.get(key)
  if (!cache) jwksCaches.set(key, (cache = {}))
  const options = { ...httpOptions(flow.provider), [o.jwksCache]: cache }
  await step("ID_TOKEN_SIGNATURE", flow.provider.id, () => o.validateApplicationLevelSignature(server, result.response, options))
  return claims
}

function userinfoHandler(provider: OAuthConfig) {
  return typeof provider.userinfo === "object" ? provider.userinfo : undefined
}

async function userinfoFromEndpoint(flow: OAuthFlowContext, server: o.AuthorizationServer, tokens: TokenSet, subject: string | undefined): Promise<Profile> {
  const { provider } = flow
  const client = clientOf(provider)
  let response = await o.userInfoRequest(server, client, tokens.access_token as string, httpOptions(provider))
  response = (await userinfoHandler(provider)?.conform?.(response)) ?? response
  if (subject !== undefined) return (await o.processUserInfoResponse(server, client, subject, response)) as Profile
  if (!response.ok) throw new OAuthCallbackError(`The userinfo endpoint answered ${response.status}`, { code: "USERINFO_ERROR", cause: { provider: provider.id, status: response.status } })
  return (await response.json()) as Profile
}

function checkSubject(flow: OAuthFlowContext, profile: Profile, subject: string | undefined): Profile {
  if (subject === undefined || profile?.sub === subject) return profile
  throw new OAuthCallbackError("The userinfo response is for another subject than the ID token", {
    code: "USERINFO_SUBJECT_MISMATCH",
    cause: { provider: flow.provider.id, expected: subject },
  })
}

/**
 * The provider's profile: the ID token claims (OIDC), or the userinfo response (`type: "oauth"`, or
 * OIDC with `idToken: false`, whose `sub` must then equal the ID token's).
 */
export async function loadProfile(flow: OAuthFlowContext, server: o.AuthorizationServer, tokens: TokenSet, claims: o.IDToken | undefined): Promise<Profile> {
  const { provider } = flow
  if (provider.type === "oidc" && provider.idToken !== false) return { ...claims } as Profile
  const subject = provider.type === "oidc" ? claims?.sub : undefined
  return step("USERINFO", provider.id, async () => {
    const handler = userinfoHandler(provider)
    if (handler?.request) return checkSubject(flow, await handler.request({ tokens, provider }), subject)
    return userinfoFromEndpoint(flow, server, tokens, subject)
  })
}
