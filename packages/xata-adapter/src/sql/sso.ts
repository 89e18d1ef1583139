/**
 * The `ssoConnections` port on `authlib_sso_connections` and `authlib_sso_domains` (migrations 10
 * and 11), and its two writes to other tables: the limited join (`authlib_sso_join`) and the claim
 * of an unsolicited assertion's ID in `authlib_verificationTokens`.
 * Each method is one statement. A domain is verified for one connection at a time: a unique index
 * over the verified rows (`authlib_sso_domains_verified_key`) decides, so of two connections
 * verifying one domain at once exactly one succeeds and the other answers `"verified-elsewhere"`.
 * Connections go with their organization, domains with their connection (ON DELETE CASCADE).
 * Secrets arrive sealed by core and are stored as given.
 */
import type { AdapterOrganizationMember, AdapterSsoConnection, AdapterSsoDomain } from "@authlib/core"
import type { XataAdapterMethods } from "../adapter-type.js"
import { QueryError, type Executor, type Row } from "../executors/index.js"
import { asDate, asString, first, lookupable, requiredStrings, requiredText, requiredTimestamp, text } from "./values.js"

const CONNECTION_COLUMNS = `xata_id, organization, type, "defaultRole", "idpEntityId", "idpSsoUrl", "idpCertificates", "spCertificate", "spPrivateKeySealed", issuer, "clientId", "clientSecretSealed", "requireIdpMfa", "allowIdpInitiated", "createdAt"`
const DOMAIN_COLUMNS = `xata_id, connection, organization, domain, "verificationToken", "verifiedAt"`
const VERIFIED_KEY = "authlib_sso_domains_verified_key"
/** A text array from a JSON array parameter (each value storable text). */
const textArray = (n: number) => `ARRAY(SELECT jsonb_array_elements_text($${n}::jsonb))`

function toConnection(row: Row | null): AdapterSsoConnection | null {
  const fields = row && requiredStrings(row, ["xata_id", "organization", "type", "defaultRole"])
  const createdAt = row && asDate(row.createdAt)
  if (!fields || !createdAt || (fields.type !== "saml" && fields.type !== "oidc")) return null
  const certificates = Array.isArray(row!.idpCertificates) ? (row!.idpCertificates as unknown[]).map(String) : []
  return {
    id: fields.xata_id, organizationId: fields.organization, type: fields.type, defaultRole: fields.defaultRole,
    idpEntityId: asString(row!.idpEntityId), idpSsoUrl: asString(row!.idpSsoUrl), idpCertificates: certificates,
    spCertificate: asString(row!.spCertificate), spPrivateKeySealed: asString(row!.spPrivateKeySealed),
    issuer: asString(row!.issuer), clientId: asString(row!.clientId), clientSecretSealed: asString(row!.clientSecretSealed),
    // NULL (a row written before migration 11 by other tools) is off: both settings are opt-in.
    requireIdpMfa: row!.requireIdpMfa === true, allowIdpInitiated: row!.allowIdpInitiated === true, createdAt,
  }
}

function toDomain(row: Row | null): AdapterSsoDomain | null {
  const fields = row && requiredStrings(row, ["xata_id", "connection", "organization", "domain", "verificationToken"])
  if (!fields) return null
  return { id: fields.xata_id, connectionId: fields.connection, organizationId: fields.organization, domain: fields.domain, verificationToken: fields.verificationToken, verifiedAt: asDate(row!.verifiedAt) }
}

/** A setting of a patch: `null` (unchanged) unless a boolean. */
const flag = (value: boolean | undefined): boolean | null => (typeof value === "boolean" ? value : null)
const present = <T>(records: (T | null)[]): T[] => records.filter((r): r is T => r !== null)
const certificatesParam = (values: readonly string[]) => JSON.stringify(values.map((v, i) => requiredText(v, `idpCertificates[${i}]`)))
const verifiedTaken = (err: unknown) => err instanceof QueryError && err.sqlState === "23505" && err.constraint === VERIFIED_KEY

type SsoMethods =
  | "createSsoConnection" | "getSsoConnection" | "listSsoConnections" | "updateSsoConnection" | "deleteSsoConnection"
  | "addSsoDomain" | "listSsoDomains" | "verifySsoDomain" | "getVerifiedSsoDomain" | "addOrganizationMember" | "claimVerificationToken"

export function ssoMethods(db: Executor): Pick<XataAdapterMethods, SsoMethods> {
  return {
    async createSsoConnection(c) {
      const rows = await db.query(
        `INSERT INTO authlib_sso_connections (xata_id, organization, type, "defaultRole", "idpEntityId", "idpSsoUrl", "idpCertificates", "spCertificate", "spPrivateKeySealed", issuer, "clientId", "clientSecretSealed", "requireIdpMfa", "allowIdpInitiated", "createdAt")
         VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, ${textArray(7)}, $8::text, $9::text, $10::text, $11::text, $12::text, $13::boolean, $14::boolean, now()) RETURNING ${CONNECTION_COLUMNS}`,
        [
          requiredText(c.id, "id"), requiredText(c.organizationId, "organizationId"), requiredText(c.type, "type"), requiredText(c.defaultRole, "defaultRole"),
          text(c.idpEntityId, "idpEntityId"), text(c.idpSsoUrl, "idpSsoUrl"), certificatesParam(c.idpCertificates), text(c.spCertificate, "spCertificate"),
          text(c.spPrivateKeySealed, "spPrivateKeySealed"), text(c.issuer, "issuer"), text(c.clientId, "clientId"), text(c.clientSecretSealed, "clientSecretSealed"),
          c.requireIdpMfa === true, c.allowIdpInitiated === true,
        ],
      )
      return toConnection(first(rows))!
    },
    async getSsoConnection(id) {
      if (!lookupable(id)) return null
      return toConnection(first(await db.query(`SELECT ${CONNECTION_COLUMNS} FROM authlib_sso_connections WHERE xata_id = $1::text`, [id])))
    },
    async listSsoConnections(organizationId) {
      if (!lookupable(organizationId)) return []
      const rows = await db.query(`SELECT ${CONNECTION_COLUMNS} FROM authlib_sso_connections WHERE organization = $1::text ORDER BY "createdAt", xata_createdat, xata_id`, [organizationId])
      return present(rows.map(toConnection))
    },
    async updateSsoConnection(id, patch) {
      if (!lookupable(id)) return null
      const certificates = patch.idpCertificates === undefined ? null : certificatesParam(patch.idpCertificates)
      const rows = await db.query(
        `UPDATE authlib_sso_connections SET "defaultRole" = COALESCE($2::text, "defaultRole"), "idpEntityId" = COALESCE($3::text, "idpEntityId"),
           "idpSsoUrl" = COALESCE($4::text, "idpSsoUrl"), "idpCertificates" = CASE WHEN $5::jsonb IS NULL THEN "idpCertificates" ELSE ${textArray(5)} END,
           issuer = COALESCE($6::text, issuer), "clientId" = COALESCE($7::text, "clientId"), "clientSecretSealed" = COALESCE($8::text, "clientSecretSealed"),
           "requireIdpMfa" = COALESCE($9::boolean, "requireIdpMfa"), "allowIdpInitiated" = COALESCE($10::boolean, "allowIdpInitiated")
         WHERE xata_id = $1::text RETURNING ${CONNECTION_COLUMNS}`,
        [
          id, text(patch.defaultRole, "defaultRole"), text(patch.idpEntityId, "idpEntityId"), text(patch.idpSsoUrl, "idpSsoUrl"), certificates, text(patch.issuer, "issuer"),
          text(patch.clientId, "clientId"), text(patch.clientSecretSealed, "clientSecretSealed"), flag(patch.requireIdpMfa), flag(patch.allowIdpInitiated),
        ],
      )
      return toConnection(first(rows))
    },
    async deleteSsoConnection(id) {
      if (!lookupable(id)) return false
      return (await db.query(`DELETE FROM authlib_sso_connections WHERE xata_id = $1::text RETURNING 1 AS done`, [id])).length === 1
    },
    // One statement: the new row, or (the connection has the domain) the stored one.
    async addSsoDomain(d) {
      const rows = await db.query(
        `WITH added AS (
           INSERT INTO authlib_sso_domains (xata_id, connection, organization, domain, "verificationToken")
           VALUES ($1::text, $2::text, $3::text, $4::text, $5::text) ON CONFLICT (connection, domain) DO NOTHING RETURNING ${DOMAIN_COLUMNS})
         SELECT ${DOMAIN_COLUMNS} FROM added UNION ALL
         SELECT ${DOMAIN_COLUMNS} FROM authlib_sso_domains WHERE connection = $2::text AND domain = $4::text AND NOT EXISTS (SELECT 1 FROM added)`,
        [requiredText(d.id, "id"), requiredText(d.connectionId, "connectionId"), requiredText(d.organizationId, "organizationId"), requiredText(d.domain, "domain"), requiredText(d.verificationToken, "verificationToken")],
      )
      return toDomain(first(rows))!
    },
    async listSsoDomains(connectionId) {
      if (!lookupable(connectionId)) return []
      return present((await db.query(`SELECT ${DOMAIN_COLUMNS} FROM authlib_sso_domains WHERE connection = $1::text ORDER BY xata_createdat, xata_id`, [connectionId])).map(toDomain))
    },
    // The unique index over verified rows decides between concurrent connections.
    async verifySsoDomain(connectionId, domain, now) {
      if (!lookupable(connectionId, domain)) return null
      try {
        const rows = await db.query(
          `UPDATE authlib_sso_domains SET "verifiedAt" = COALESCE("verifiedAt", $3::timestamptz) WHERE connection = $1::text AND domain = $2::text RETURNING ${DOMAIN_COLUMNS}`,
          [connectionId, domain, new Date(now).toISOString()],
        )
        return toDomain(first(rows))
      } catch (err) {
        if (verifiedTaken(err)) return "verified-elsewhere"
        throw err
      }
    },
    async getVerifiedSsoDomain(domain) {
      if (!lookupable(domain)) return null
      return toDomain(first(await db.query(`SELECT ${DOMAIN_COLUMNS} FROM authlib_sso_domains WHERE domain = $1::text AND "verifiedAt" IS NOT NULL`, [domain])))
    },
    // One call of `authlib_sso_join` (migration 11): the membership under the organization's lock, within the limit when given.
    async addOrganizationMember(organizationId, userId, role, limit): Promise<AdapterOrganizationMember | "limit-reached" | null> {
      if (!lookupable(organizationId, userId)) return null
      const membershipLimit = limit?.membershipLimit
      const rows = await db.query(
        `SELECT outcome, organization, "user", role, "joinedAt" FROM authlib_sso_join($1::text, $2::text, $3::text, $4::timestamptz, $5::integer)`,
        [organizationId, userId, requiredText(role, "role"), new Date(limit?.now ?? Date.now()).toISOString(), membershipLimit === undefined ? null : membershipLimit],
      )
      const row = first(rows)
      if (row?.outcome === "limit-reached") return "limit-reached"
      const fields = row && requiredStrings(row, ["organization", "user", "role"])
      const joinedAt = row && asDate(row.joinedAt)
      return fields && joinedAt ? { organizationId: fields.organization, userId: fields.user, role: fields.role, joinedAt } : null
    },
    // One statement on the unique (identifier, token) key: stored when absent, or over an expired record; nothing otherwise.
    async claimVerificationToken({ identifier, token, expires }) {
      const rows = await db.query(
        `INSERT INTO "authlib_verificationTokens" AS t (identifier, token, expires) VALUES ($1::text, $2::text, $3::timestamptz)
         ON CONFLICT (identifier, token) DO UPDATE SET expires = EXCLUDED.expires WHERE t.expires IS NULL OR t.expires <= now()
         RETURNING 1 AS claimed`,
        [requiredText(identifier, "identifier"), requiredText(token, "token"), requiredTimestamp(expires, "expires")],
      )
      return rows.length === 1
    },
  }
}
