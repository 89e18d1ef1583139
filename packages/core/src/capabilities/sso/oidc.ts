/**
 * OpenID Connect connections, through `oauth4webapi` as the oauth capability uses it: the
 * authorization code flow with PKCE (S256), `state` and `nonce`, all three kept in the binding
 * cookie of this browser (`binding.ts`), the state's single use recorded across instances
 * (`request-record.ts`). The start sends the browser to the issuer's authorization endpoint; `GET
 * {basePath}/sso/callback/{connectionId}` checks the answer, exchanges the code with the sealed client
 * secret, validates the ID token (issuer, audience, signature by the issuer's keys, nonce) and reads
 * its `email`; `complete.ts` does the rest. Every refusal is the error page with its code, nothing stored.
 */
import * as o from "oauth4webapi"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import type { AdapterSsoConnection } from "./adapter.js"
import { bindingCookie, readBinding } from "./binding.js"
import { completeSsoSignIn } from "./complete.js"
import { isMultiFactorIdToken } from "./mfa.js"
import { refuse } from "./refusal.js"
import { recordRequest, takeRequest } from "./request-record.js"
import { openSsoSecret } from "./seal.js"
import { connectionUrls, ssoStore } from "./store.js"

const ID = /^[A-Za-z0-9_-]{1,64}$/
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"])
/** Plain http only for an issuer on loopback (a local IdP in development and tests), as the connection's URL check allows. */
const http = (issuer: URL) => (issuer.protocol === "http:" && LOOPBACK.has(issuer.hostname) ? { [o.allowInsecureRequests]: true as const } : {})

/** The issuer's metadata (discovery, fetched per sign-in step: connections are few and change). */
async function authorizationServer(issuer: URL): Promise<o.AuthorizationServer> {
  return o.processDiscoveryResponse(issuer, await o.discoveryRequest(issuer, { algorithm: "oidc", ...http(issuer) }))
}

/** The start: a redirect to the issuer with PKCE, state and nonce, and the binding cookie. */
export async function startOidc(ctx: Context & { callbackUrl: string }, connection: AdapterSsoConnection): Promise<AuthResponse> {
  const issuer = new URL(connection.issuer!)
  let server: o.AuthorizationServer
  try {
    server = await authorizationServer(issuer)
  } catch (err) {
    return refuse(ctx, "OIDC_FAILED", { connectionId: connection.id, step: "discovery", reason: String(err) })
  }
  const codeVerifier = o.generateRandomCodeVerifier()
  const state = o.generateRandomState()
  const nonce = o.generateRandomNonce()
  const url = new URL(server.authorization_endpoint!)
  url.searchParams.set("client_id", connection.clientId!)
  url.searchParams.set("redirect_uri", connectionUrls(ctx, connection.id).callbackUrl)
  url.searchParams.set("response_type", "code")
  url.searchParams.set("scope", "openid email profile")
  url.searchParams.set("state", state)
  url.searchParams.set("nonce", nonce)
  url.searchParams.set("code_challenge", await o.calculatePKCECodeChallenge(codeVerifier))
  url.searchParams.set("code_challenge_method", "S256")
  await recordRequest(ctx, connection.id, state)
  return { redirect: url.href, cookies: [await bindingCookie(ctx, { connectionId: connection.id, requestId: state, callbackUrl: ctx.callbackUrl, codeVerifier, nonce })] }
}

/** `GET sso/callback/:id`. */
export async function oidcCallback(req: AuthRequest, ctx: Context, connectionId: string | undefined): Promise<AuthResponse> {
  const connection = connectionId && ID.test(connectionId) ? await ssoStore(ctx).getSsoConnection(connectionId) : null
  if (!connection || connection.type !== "oidc") return refuse(ctx, "CONNECTION_UNKNOWN")
  const binding = await readBinding(ctx, req.cookies, connection.id)
  if (!binding?.codeVerifier || !binding.nonce) return refuse(ctx, "IN_RESPONSE_TO_UNKNOWN", { connectionId: connection.id })
  const issuer = new URL(connection.issuer!)
  const client: o.Client = { client_id: connection.clientId! }
  let claims: o.IDToken
  try {
    const server = await authorizationServer(issuer)
    // The state must be this browser's (checked here, constant-time in oauth4webapi), before the record is taken.
    const params = o.validateAuthResponse(server, client, req.url, binding.requestId)
    if (!(await takeRequest(ctx, connection.id, binding.requestId))) return refuse(ctx, "ASSERTION_REPLAYED", { connectionId: connection.id })
    const secret = await openSsoSecret(connection.clientSecretSealed!, "client-secret", connection.id, ctx.config.secret)
    const response = await o.authorizationCodeGrantRequest(server, client, o.ClientSecretBasic(secret), params, connectionUrls(ctx, connection.id).callbackUrl, binding.codeVerifier, http(issuer))
    const result = await o.processAuthorizationCodeResponse(server, client, response, { expectedNonce: binding.nonce, requireIdToken: true })
    claims = o.getValidatedIdTokenClaims(result)!
  } catch (err) {
    if (err instanceof Error && err.name === "Configuration") throw err
    return refuse(ctx, "OIDC_FAILED", { connectionId: connection.id, reason: err instanceof Error ? `${err.name}: ${err.message}` : "failed" })
  }
  const email = typeof claims.email === "string" && claims.email_verified !== false ? claims.email : null
  const name = typeof claims.name === "string" ? claims.name : null
  // From the verified ID token only (`mfa.ts`).
  return completeSsoSignIn(req, ctx, connection, { subject: claims.sub, email, name, mfa: isMultiFactorIdToken(claims) }, binding.callbackUrl)
}
