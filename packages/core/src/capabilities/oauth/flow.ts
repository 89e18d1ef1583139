/**
 * The OAuth 2 / OpenID Connect flow (`type: "oauth"` and `type: "oidc"`), as declared in
 * `index.ts`:
 *
 * - `signin`: POST signin/:provider -> redirect to the authorization endpoint with check cookies.
 * - `callback`: GET callback/:provider (and `form_post` POST, re-issued as a GET first) -> the
 *   validated sign-in, handed to `issueSession` by the callback route.
 */
import type { AuthRequest, AuthResponse } from "../../kernel/types/http.js"
import type { OAuthConfig } from "../../kernel/types/providers.js"
import type { Flow, FlowContext, FlowOutcome } from "../../kernel/types/sign-in.js"
import { authorizationRequest } from "./flow-signin.js"
import { exchangeCode, loadProfile, readChecks, validateAuthorizationResponse, verifyIdToken } from "./flow-callback.js"
import { clearCheckCookies } from "./checks.js"
import { activeChecks, oauthContext } from "./context.js"
import { authorizationServer } from "./discovery.js"
import { buildSignIn, withResponseUser } from "./profile.js"
import { proxyForwardUrl } from "./redirect-proxy.js"

/** Query keys of POST signin/:provider that belong to authlib, not to the authorization request. */
const SIGNIN_KEYS = new Set(["callbackUrl", "csrfToken"])

function authorizationParams(req: AuthRequest): URLSearchParams {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(req.query)) if (!SIGNIN_KEYS.has(key)) params.set(key, value)
  return params
}

async function signin(req: AuthRequest, ctx: FlowContext<OAuthConfig>): Promise<AuthResponse> {
  const { url, cookies } = await authorizationRequest(oauthContext(ctx, ctx.provider), authorizationParams(req))
  return { redirect: url, cookies }
}

/** The response parameters: the query of a GET, the form of a `form_post` POST. */
function responseParams(req: AuthRequest): URLSearchParams {
  const source = req.method === "POST" ? req.body : req.query
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(source)) if (typeof value === "string") params.set(key, value)
  return params
}

/**
 * A `form_post` response is a cross-site POST, which carries no `SameSite=Lax` cookie. Answering it
 * with a 303 to the same callback as a GET makes it a top-level navigation, which does.
 */
function reissueAsGet(callbackUrl: string, params: URLSearchParams): FlowOutcome {
  const target = new URL(callbackUrl)
  target.search = params.toString()
  return { response: { status: 303, redirect: target.href } }
}

async function callback(req: AuthRequest, ctx: FlowContext<OAuthConfig>): Promise<FlowOutcome> {
  const flow = oauthContext(ctx, ctx.provider)
  const params = responseParams(req)
  if (flow.redirectProxyUrl) {
    const proxyUrl = flow.redirectProxyUrl
    const allowed = ctx.config.redirectProxyAllowedOrigins
    const forward = await proxyForwardUrl({ secret: flow.secret, providerId: flow.providerId, proxyUrl, ownCallbackUrl: flow.oauthCallbackUrl, allowed, params })
    // 303: a forwarded form_post must arrive as a GET.
    if (forward) return { response: { status: 303, redirect: forward } }
  }
  if (req.method === "POST") return reissueAsGet(flow.oauthCallbackUrl, params)
  const checks = activeChecks(flow)
  const values = await readChecks(flow, checks, req.cookies)
  const server = await authorizationServer(flow.provider)
  const validated = await validateAuthorizationResponse(flow, server, params, values)
  const tokens = await exchangeCode(flow, server, validated, values)
  const claims = await verifyIdToken(flow, tokens)
  const profile = await loadProfile(flow, tokens.server, tokens.tokens, claims)
  const result = await buildSignIn(flow.provider, withResponseUser(profile, params), tokens.tokens)
  const own: OAuthSignIn = { allowEmailLinking: flow.provider.allowDangerousEmailAccountLinking === true }
  return { signIn: { ...result, cookies: clearCheckCookies(flow, checks), own } }
}

/** What an OAuth/OIDC sign-in keeps of its own (`SignInResult.own`). */
export interface OAuthSignIn {
  /** The provider allows joining a user who exists with the same address (`allowDangerousEmailAccountLinking`). */
  readonly allowEmailLinking: boolean
}

/** The flow of `oauth` and `oidc` providers. */
export const oauthFlow: Flow<OAuthConfig> = {
  signin,
  callback,
  callbackMethods: ["GET", "POST"],
  callbackCsrf: false,
}
