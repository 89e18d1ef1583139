/**
 * `POST {basePath}/signin/sso` (after the kernel's CSRF and Origin checks): finds the connection by
 * the address's domain (`email`: only a domain verified for a connection) or by the organization's
 * slug (`organization`), then sends the browser to the IdP: a signed SAML AuthnRequest (HTTP-Redirect
 * binding) or an OIDC authorization request (`oidc.ts`), with the binding cookie and the request's
 * single-use record (`request-record.ts`).
 */
import { organizationStore } from "../organizations/index.js"
import type { AuthRequest, AuthResponse } from "../../kernel/types/http.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"
import type { SsoConfig } from "./provider.js"
import type { AdapterSsoConnection } from "./adapter.js"
import { bindingCookie } from "./binding.js"
import { samlEngine } from "./engine.js"
import { refuse } from "./refusal.js"
import { openSsoSecret } from "./seal.js"
import { connectionUrls, ssoOptions, ssoStore } from "./store.js"
import { domainOfAddress } from "./identifiers.js"
import { recordRequest } from "./request-record.js"
import { startOidc } from "./oidc.js"

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/

/** The connection the body names: by verified domain, else by organization slug (its first connection). */
async function connectionFor(req: AuthRequest, ctx: FlowContext<SsoConfig>): Promise<AdapterSsoConnection | null> {
  const store = ssoStore(ctx)
  const domain = domainOfAddress(req.body.email)
  if (domain) {
    const verified = await store.getVerifiedSsoDomain(domain)
    return verified ? store.getSsoConnection(verified.connectionId) : null
  }
  const slug = typeof req.body.organization === "string" ? req.body.organization.trim().toLowerCase() : ""
  if (!SLUG.test(slug)) return null
  const organization = await organizationStore(ctx).getOrganizationBySlug(slug)
  return organization ? ((await store.listSsoConnections(organization.id))[0] ?? null) : null
}

export async function ssoSignin(req: AuthRequest, ctx: FlowContext<SsoConfig>): Promise<AuthResponse> {
  ssoOptions(ctx)
  const connection = await connectionFor(req, ctx)
  if (!connection) return refuse(ctx, "CONNECTION_UNKNOWN")
  if (connection.type === "oidc") return startOidc(ctx, connection)
  const engine = await samlEngine(ctx.provider)
  const urls = connectionUrls(ctx, connection.id)
  const privateKeyPem = await openSsoSecret(connection.spPrivateKeySealed!, "sp-private-key", connection.id, ctx.config.secret)
  const request = engine.createAuthnRequest({ sp: { entityId: urls.entityId, privateKeyPem }, idp: { ssoRedirectUrl: connection.idpSsoUrl! }, acsUrl: urls.acsUrl })
  await recordRequest(ctx, connection.id, request.id)
  return { redirect: request.url, cookies: [await bindingCookie(ctx, { connectionId: connection.id, requestId: request.id, callbackUrl: ctx.callbackUrl })] }
}
