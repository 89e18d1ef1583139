/**
 * Multi-tenant issuers (Microsoft Entra ID `common`, `organizations`, `consumers`): their discovery
 * document names the issuer as a template, `https://login.microsoftonline.com/{tenantid}/v2.0`,
 * and each ID token's `iss` is that template filled with the token's own `tid` claim.
 *
 * The flow accepts such a document only for the configured multi-tenant issuer it was fetched for,
 * and checks every ID token against the template filled with the token's `tid`: the issuer then
 * still has to be exactly right, and the signature is checked against the issuer's JWKS as always.
 */
import type * as o from "oauth4webapi"

const PLACEHOLDER = "{tenantid}"
/** Where the template is kept on the metadata object. */
const TEMPLATE = "authlib_issuer_template"

/** Whether `configured` is `template` with one path segment in place of `{tenantid}`. */
function fillsTemplate(template: string, configured: string): boolean {
  const at = template.indexOf(PLACEHOLDER)
  if (at < 0) return false
  const prefix = template.slice(0, at)
  const suffix = template.slice(at + PLACEHOLDER.length)
  if (!configured.startsWith(prefix) || !configured.endsWith(suffix)) return false
  const tenant = configured.slice(prefix.length, configured.length - suffix.length)
  return /^[A-Za-z0-9.-]+$/.test(tenant)
}

/**
 * A discovery response for `configured` whose issuer is a tenant template is rewritten to name
 * `configured` (so oauth4webapi's exact issuer check passes) and remembers the template.
 */
export async function acceptTenantTemplate(configured: URL, response: Response): Promise<{ response: Response; template?: string }> {
  if (!response.ok) return { response }
  const doc = (await response.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined
  const template = doc?.issuer
  if (typeof template !== "string" || !fillsTemplate(template, configured.href)) return { response }
  return { response: Response.json({ ...doc, issuer: configured.href }, { headers: response.headers }), template }
}

/** Keeps the template on the metadata, for `forIdToken`. */
export function withTemplate(server: o.AuthorizationServer, template: string | undefined): o.AuthorizationServer {
  return template ? ({ ...server, [TEMPLATE]: template } as o.AuthorizationServer) : server
}

function tenantOf(idToken: string): string | undefined {
  try {
    const payload = idToken.split(".")[1] ?? ""
    const json = atob(payload.replaceAll("-", "+").replaceAll("_", "/"))
    const tid = (JSON.parse(json) as { tid?: unknown }).tid
    return typeof tid === "string" && /^[A-Za-z0-9.-]+$/.test(tid) ? tid : undefined
  } catch {
    return undefined
  }
}

/**
 * The metadata to validate `idToken` with: for a tenant template, the issuer filled with the
 * token's `tid` (a token without a usable `tid` keeps the template, which no `iss` can match).
 */
export function forIdToken(server: o.AuthorizationServer, idToken: string | undefined): o.AuthorizationServer {
  const template = (server as unknown as Record<string, unknown>)[TEMPLATE]
  if (typeof template !== "string" || !idToken) return server
  const tenant = tenantOf(idToken)
  return tenant ? { ...server, issuer: template.replace(PLACEHOLDER, tenant) } : { ...server, issuer: template }
}
