/**
 * Connections and their domains, managed by an organization's owners and admins (the organizations
 * permission `organization:update`) after a fresh authentication (`organizations.freshAge`, and a
 * recent second factor where two-factor asks for one). No answer ever holds a secret: the SP private
 * key and the client secret are sealed before they reach the store (`seal.ts`) and never leave it
 * again but to sign a request or verify a response.
 */
import { callerIn, OrganizationError, organizationsOptions, roleOf, withPermission, OWNER_ROLE } from "../organizations/index.js"
import { assertRecentAuthentication, requireFreshSecondFactor } from "../../kernel/sessions/freshness.js"
import { randomToken } from "../../kernel/security/random.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import type { AdapterSsoConnection, AdapterSsoDomain, SsoConnectionPatch } from "./adapter.js"
import { samlEngine } from "./engine.js"
import { SsoError } from "./errors.js"
import { certificateOf, connectionIdOf, domainOf, metadataOf, textOf, urlOf } from "./identifiers.js"
import { sealSsoSecret } from "./seal.js"
import { connectionUrls, ssoOptions, ssoProvider, ssoStore } from "./store.js"

/** What `createSsoConnection` takes: a SAML IdP by its metadata or by its three values, or an OIDC client. */
export type SsoConnectionInput = (
  | { type: "saml"; idpMetadataXml: string }
  | { type: "saml"; entryPoint: string; idpCertificate: string; idpEntityId: string }
  | { type: "oidc"; issuer: string; clientId: string; clientSecret: string }
) & {
  /** The role of a user who joins the organization through the connection (default `member`; never `owner`). */
  defaultRole?: string
} & SsoConnectionSettings

/**
 * What a connection requires of a sign-in and what it allows, set at creation or by
 * `updateSsoConnection`; both `false` unless set.
 */
export interface SsoConnectionSettings {
  /**
   * Require the IdP's multi-factor claim (SAML: the signed assertion's `AuthnContextClassRef` is a
   * multi-factor class such as `https://refeds.org/profile/mfa`; OIDC: the verified ID token's `amr`
   * holds `mfa`, or its `acr` is such a class). A sign-in without it is refused (`MFA_REQUIRED`);
   * with it, the IdP's MFA stands for both factors: the session's `amr` holds `mfa` and authlib's own
   * second factor (TOTP, backup code, `twoFactor.required` enrolment) is not asked for this sign-in,
   * also of a user who enrolled TOTP. Off: the app's two-factor rules apply as to any sign-in.
   */
  requireIdpMfa?: boolean
  /**
   * SAML: accept an unsolicited Response (no `InResponseTo`: a sign-in started at the IdP's portal).
   * Each such assertion signs in once (its ID recorded until it expires, across instances), and its
   * `RelayState` is a destination only as the `redirect` callback allows. It lets anyone who holds a
   * valid assertion for themselves sign a browser in as them (login CSRF), which an SP-initiated
   * sign-in's binding prevents: enable it only for IdPs whose users start from a portal.
   */
  allowIdpInitiated?: boolean
}

/** What `updateSsoConnection` may change. */
export interface SsoConnectionUpdate extends SsoConnectionSettings {
  defaultRole?: string
  /** SAML: new IdP metadata (a rotated certificate), or a second certificate to accept during a rotation. */
  idpMetadataXml?: string
  idpCertificates?: string[]
  /** OIDC: a new issuer or client (a move to another tenant), a new client secret. */
  issuer?: string
  clientId?: string
  clientSecret?: string
}

/** A connection as the server functions answer it: never a secret. */
export interface SsoConnection {
  id: string
  organizationId: string
  type: "saml" | "oidc"
  defaultRole: string
  /** See `SsoConnectionSettings`. */
  requireIdpMfa: boolean
  allowIdpInitiated: boolean
  createdAt: Date
  /** SAML: what to give the IdP (its SP entity ID, ACS URL and metadata URL) and what it is. */
  spEntityId?: string
  acsUrl?: string
  metadataUrl?: string
  idpEntityId?: string
  idpSsoUrl?: string
  /** OIDC: the issuer, the client id and the redirect URI to register with the IdP. */
  issuer?: string
  clientId?: string
  redirectUri?: string
}

/** A domain of a connection, with the TXT record that proves it. */
export interface SsoDomain {
  id: string
  domain: string
  verified: boolean
  record: { type: "TXT"; name: string; value: string }
}

const DEFAULT_ROLE = "member"
/** The permission that manages connections: owners and admins hold it by default. */
const MANAGE = "organization:update"

/** `connection` as callers see it. */
function shown(ctx: Context, c: AdapterSsoConnection): SsoConnection {
  const base = { id: c.id, organizationId: c.organizationId, type: c.type, defaultRole: c.defaultRole, requireIdpMfa: c.requireIdpMfa === true, allowIdpInitiated: c.allowIdpInitiated === true, createdAt: c.createdAt }
  const urls = connectionUrls(ctx, c.id)
  if (c.type === "oidc") return { ...base, issuer: c.issuer!, clientId: c.clientId!, redirectUri: urls.callbackUrl }
  return { ...base, spEntityId: urls.entityId, acsUrl: urls.acsUrl, metadataUrl: urls.entityId, idpEntityId: c.idpEntityId!, idpSsoUrl: c.idpSsoUrl! }
}

/** The TXT record that proves `domain` for a connection. */
const recordOf = (d: AdapterSsoDomain): SsoDomain["record"] => ({ type: "TXT", name: `_authlib-sso.${d.domain}`, value: `authlib-sso-verification=${d.verificationToken}` })

/** The caller as a manager of `organizationId` (`FORBIDDEN` otherwise), freshly authenticated when `fresh`. */
async function manager(req: AuthRequest, ctx: Context, organizationId: unknown, fresh: boolean): Promise<string> {
  ssoOptions(ctx)
  const caller = withPermission(ctx, await callerIn(req, ctx, organizationId), MANAGE)
  if (fresh) {
    const principal = await requireFreshSecondFactor(req, ctx, "Sign in to manage single sign-on")
    assertRecentAuthentication(ctx, principal, { maxAge: organizationsOptions(ctx).freshAge })
  }
  return caller.organizationId
}

/** The connection `id` managed by the caller; `CONNECTION_UNKNOWN` also when they are not a member of its organization. */
async function managedConnection(req: AuthRequest, ctx: Context, id: unknown, fresh: boolean): Promise<AdapterSsoConnection> {
  ssoOptions(ctx)
  const connection = await ssoStore(ctx).getSsoConnection(connectionIdOf(id))
  const unknown = () => new SsoError("No such SSO connection", { code: "CONNECTION_UNKNOWN" })
  if (!connection) throw unknown()
  try {
    await manager(req, ctx, connection.organizationId, fresh)
  } catch (err) {
    if (err instanceof OrganizationError && err.code === "ORGANIZATION_UNKNOWN") throw unknown()
    throw err
  }
  return connection
}

function defaultRoleOf(ctx: Context, value: unknown): string {
  if (value === undefined) return DEFAULT_ROLE
  const role = roleOf(organizationsOptions(ctx).roles, value)
  if (role === OWNER_ROLE) throw new SsoError("An IdP cannot make owners: choose another default role", { code: "CONNECTION_INVALID", cause: { field: "defaultRole" } })
  return role
}

/** The settings `input` names, checked (`CONNECTION_INVALID`): booleans, and IdP-initiated sign-in for SAML only. */
function settingsOf(input: SsoConnectionSettings, type: "saml" | "oidc"): Partial<Pick<AdapterSsoConnection, "requireIdpMfa" | "allowIdpInitiated">> {
  const settings: Partial<Pick<AdapterSsoConnection, "requireIdpMfa" | "allowIdpInitiated">> = {}
  for (const field of ["requireIdpMfa", "allowIdpInitiated"] as const) {
    const value: unknown = input[field]
    if (value === undefined) continue
    if (typeof value !== "boolean") throw new SsoError(`"${field}" must be true or false`, { code: "CONNECTION_INVALID", cause: { field } })
    settings[field] = value
  }
  if (settings.allowIdpInitiated && type !== "saml")
    throw new SsoError('"allowIdpInitiated" is for SAML connections: an OIDC sign-in always starts at the app', { code: "CONNECTION_INVALID", cause: { field: "allowIdpInitiated" } })
  return settings
}

/** The IdP's values from its metadata (the engine refuses DTDs, oversize and weak keys). */
async function idpFromMetadata(ctx: Context, xml: unknown): Promise<{ idpEntityId: string; idpSsoUrl: string; idpCertificates: string[] }> {
  const engine = await samlEngine(ssoProvider(ctx))
  try {
    const idp = engine.parseIdpMetadata(metadataOf(xml))
    return { idpEntityId: idp.entityId, idpSsoUrl: urlOf(idp.ssoRedirectUrl, "SingleSignOnService"), idpCertificates: idp.certificates }
  } catch (err) {
    if (err instanceof SsoError) throw err
    throw new SsoError("The IdP metadata was refused", { code: "METADATA_INVALID", cause: { reason: (err as { code?: string }).code ?? "unreadable" } })
  }
}

/** Creates a connection for an organization the caller manages; a SAML connection gets its own SP key pair and certificate. */
export async function createConnection(req: AuthRequest, ctx: Context, organizationId: unknown, input: SsoConnectionInput): Promise<SsoConnection> {
  const orgId = await manager(req, ctx, organizationId, true)
  if (typeof input !== "object" || input === null) throw new SsoError("A connection needs a type", { code: "CONNECTION_INVALID", cause: { field: "type" } })
  const defaultRole = defaultRoleOf(ctx, input.defaultRole)
  const id = `sso_${randomToken(15)}`
  const secrets = ctx.config.secret
  const empty = {
    idpEntityId: null, idpSsoUrl: null, idpCertificates: [], spCertificate: null, spPrivateKeySealed: null, issuer: null, clientId: null, clientSecretSealed: null,
    requireIdpMfa: false, allowIdpInitiated: false, ...settingsOf(input, input.type),
  }
  let record: Omit<AdapterSsoConnection, "createdAt">
  if (input.type === "saml") {
    const idp = "idpMetadataXml" in input
      ? await idpFromMetadata(ctx, input.idpMetadataXml)
      : { idpEntityId: textOf(input.idpEntityId, "idpEntityId"), idpSsoUrl: urlOf(input.entryPoint, "entryPoint"), idpCertificates: [certificateOf(input.idpCertificate)] }
    const engine = await samlEngine(ssoProvider(ctx))
    const keys = await engine.generateServiceProviderKeys({ commonName: new URL(ctx.origin).hostname })
    record = { ...empty, id, organizationId: orgId, type: "saml", defaultRole, ...idp, spCertificate: keys.certificatePem, spPrivateKeySealed: await sealSsoSecret(keys.privateKeyPem, "sp-private-key", id, secrets) }
  } else if (input.type === "oidc") {
    const issuer = urlOf(input.issuer, "issuer")
    record = { ...empty, id, organizationId: orgId, type: "oidc", defaultRole, issuer, clientId: textOf(input.clientId, "clientId"), clientSecretSealed: await sealSsoSecret(textOf(input.clientSecret, "clientSecret"), "client-secret", id, secrets) }
  } else {
    throw new SsoError('"type" must be "saml" or "oidc"', { code: "CONNECTION_INVALID", cause: { field: "type" } })
  }
  return shown(ctx, await ssoStore(ctx).createSsoConnection(record))
}

/** The connections of an organization the caller manages. */
export async function listConnections(req: AuthRequest, ctx: Context, organizationId: unknown): Promise<SsoConnection[]> {
  const orgId = await manager(req, ctx, organizationId, false)
  return (await ssoStore(ctx).listSsoConnections(orgId)).map((c) => shown(ctx, c))
}

/** Changes a connection's default role, settings, IdP metadata or certificates, or client secret. */
export async function updateConnection(req: AuthRequest, ctx: Context, connectionId: unknown, update: SsoConnectionUpdate): Promise<SsoConnection> {
  const connection = await managedConnection(req, ctx, connectionId, true)
  if (typeof update !== "object" || update === null) throw new SsoError("Nothing to change", { code: "CONNECTION_INVALID" })
  const patch: SsoConnectionPatch = settingsOf(update, connection.type)
  if (update.defaultRole !== undefined) patch.defaultRole = defaultRoleOf(ctx, update.defaultRole)
  if (connection.type === "saml" && update.idpMetadataXml !== undefined) Object.assign(patch, await idpFromMetadata(ctx, update.idpMetadataXml))
  if (connection.type === "saml" && update.idpCertificates !== undefined) {
    if (!Array.isArray(update.idpCertificates) || update.idpCertificates.length === 0 || update.idpCertificates.length > 4)
      throw new SsoError('"idpCertificates" must list one to four certificates', { code: "CONNECTION_INVALID", cause: { field: "idpCertificates" } })
    patch.idpCertificates = update.idpCertificates.map(certificateOf)
  }
  if (connection.type === "oidc" && update.issuer !== undefined) patch.issuer = urlOf(update.issuer, "issuer")
  if (connection.type === "oidc" && update.clientId !== undefined) patch.clientId = textOf(update.clientId, "clientId")
  if (connection.type === "oidc" && update.clientSecret !== undefined)
    patch.clientSecretSealed = await sealSsoSecret(textOf(update.clientSecret, "clientSecret"), "client-secret", connection.id, ctx.config.secret)
  const updated = await ssoStore(ctx).updateSsoConnection(connection.id, patch)
  if (!updated) throw new SsoError("No such SSO connection", { code: "CONNECTION_UNKNOWN" })
  return shown(ctx, updated)
}

/** Deletes a connection with its domains. */
export async function deleteConnection(req: AuthRequest, ctx: Context, connectionId: unknown): Promise<void> {
  const connection = await managedConnection(req, ctx, connectionId, true)
  await ssoStore(ctx).deleteSsoConnection(connection.id)
}

/** Adds a domain to a connection: the TXT record to publish for it to be verified. */
export async function addDomain(req: AuthRequest, ctx: Context, connectionId: unknown, domain: unknown): Promise<SsoDomain> {
  const connection = await managedConnection(req, ctx, connectionId, true)
  const name = domainOf(domain)
  const stored = await ssoStore(ctx).addSsoDomain({ id: `ssod_${randomToken(12)}`, connectionId: connection.id, organizationId: connection.organizationId, domain: name, verificationToken: randomToken(24) })
  return { id: stored.id, domain: stored.domain, verified: stored.verifiedAt !== null, record: recordOf(stored) }
}

/**
 * Looks the domain's TXT record up (`sso.resolveTxt`) and marks it verified when it holds the
 * value; `verified: false` when it does not, when the lookup fails, or when another organization
 * has the domain verified. Throws only for an unknown connection or domain, or a forbidden caller.
 */
export async function verifyDomain(req: AuthRequest, ctx: Context, connectionId: unknown, domain: unknown): Promise<{ domain: string; verified: boolean }> {
  const connection = await managedConnection(req, ctx, connectionId, true)
  const name = domainOf(domain)
  const stored = (await ssoStore(ctx).listSsoDomains(connection.id)).find((d) => d.domain === name)
  if (!stored) throw new SsoError("The connection has no such domain", { code: "DOMAIN_UNKNOWN" })
  const record = recordOf(stored)
  let answers: string[][] = []
  try {
    const resolveTxt = ssoOptions(ctx).resolveTxt ?? ssoProvider(ctx).resolveTxt
    if (!resolveTxt) throw new TypeError('no TXT lookup: set "sso.resolveTxt"')
    answers = await resolveTxt(record.name)
  } catch (err) {
    ctx.config.logger.warn("sso-domain-lookup-failed", "the TXT lookup of an SSO domain failed", { domain: name, err: String(err) })
  }
  const published = Array.isArray(answers) && answers.some((parts) => Array.isArray(parts) && parts.join("") === record.value)
  if (!published) return { domain: name, verified: false }
  const verified = await ssoStore(ctx).verifySsoDomain(connection.id, name, new Date())
  return { domain: name, verified: verified !== null && verified !== "verified-elsewhere" }
}
