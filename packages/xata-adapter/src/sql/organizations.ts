/**
 * The organizations port on `authlib_organizations`, `authlib_organization_members` and
 * `authlib_organization_invitations` (migration 9). Each method is one statement. The writes that
 * guard a rule (a role change, a removal, an invitation under the membership limit, and the
 * organizations' part of `deleteUser` in `users.ts`) call the migration's functions, which take the
 * organization's row lock before they count owners or seats (see `lockOrganization` in
 * `schema.ts`); an acceptance is one conditional `UPDATE` of the invitation row (the row lock lets
 * one of concurrent callers find it pending) with the membership inserted in the same statement.
 */
import { OrganizationError } from "@authlib/core"
import type { AdapterOrganization, AdapterOrganizationInvitation, AdapterOrganizationMember } from "@authlib/core"
import type { XataAdapterMethods } from "../adapter-type.js"
import { QueryError, type Executor, type Row } from "../executors/index.js"
import { XataAdapterError } from "../errors.js"
import { asDate, asString, first, integer, lookupable, requiredStrings, requiredText, requiredTimestamp, text } from "./values.js"

const ORGANIZATION_COLUMNS = `xata_id, name, slug, "createdAt"`
const MEMBER_COLUMNS = `organization, "user", role, "joinedAt"`
const INVITATION_COLUMNS = `xata_id, organization, email, role, inviter, "tokenHash", expires, status, "createdAt"`
/** Oldest membership first; ties (one millisecond) by when the row was written. */
const MEMBERSHIP_ORDER = `m."joinedAt", m.xata_createdat, m.xata_id`
const SLUG_KEY = "authlib_organizations_slug_key"
const STATUSES = new Set(["pending", "accepted", "revoked"])

/** An organization row; `null` when a field it needs is missing (a row written by other tools). */
function toOrganization(row: Row | null): AdapterOrganization | null {
  const fields = row && requiredStrings(row, ["xata_id", "name", "slug"])
  const createdAt = row && asDate(row.createdAt)
  return fields && createdAt ? { id: fields.xata_id, name: fields.name, slug: fields.slug, createdAt } : null
}

function toMember(row: Row | null): AdapterOrganizationMember | null {
  const fields = row && requiredStrings(row, ["organization", "user", "role"])
  const joinedAt = row && asDate(row.joinedAt)
  return fields && joinedAt ? { organizationId: fields.organization, userId: fields.user, role: fields.role, joinedAt } : null
}

function toInvitation(row: Row | null): AdapterOrganizationInvitation | null {
  const fields = row && requiredStrings(row, ["xata_id", "organization", "email", "role", "inviter", "tokenHash", "status"])
  const expires = row && asDate(row.expires)
  const createdAt = row && asDate(row.createdAt)
  if (!fields || !expires || !createdAt || !STATUSES.has(fields.status)) return null
  const { xata_id: id, organization: organizationId, email, role, inviter: inviterId, tokenHash } = fields
  return { id, organizationId, email, role, inviterId, tokenHash, expires, status: fields.status as AdapterOrganizationInvitation["status"], createdAt }
}

const present = <T>(records: (T | null)[]): T[] => records.filter((r): r is T => r !== null)

/** The membership a guarding function answered (`member_*` columns), its `"last-owner"`, or `null` for no row. */
function guardedMember(rows: Row[], organizationId: string): AdapterOrganizationMember | "last-owner" | null {
  const row = first(rows)
  if (!row) return null
  if (row.outcome === "last-owner") return "last-owner"
  return toMember({ organization: organizationId, user: row.member_user, role: row.member_role, joinedAt: row.member_joined })
}

/** The actor's id and role as the functions' parameters (both `NULL` without an actor). */
function actorParams(actor: { userId: string; role: string } | undefined): [string | null, string | null] {
  return actor ? [requiredText(actor.userId, "actor.userId"), requiredText(actor.role, "actor.role")] : [null, null]
}

/** The membership limit: a whole number from 1, or none. */
function limit(value: number | undefined): number | null {
  const checked = integer(value, "membershipLimit") as number | null
  if (checked !== null && checked < 1) throw new XataAdapterError(`"membershipLimit" must be a whole number from 1`, { code: "INVALID_INPUT", cause: { field: "membershipLimit" } })
  return checked
}

const slugTaken = (err: unknown) => err instanceof QueryError && err.sqlState === "23505" && err.constraint === SLUG_KEY

type OrganizationMethods =
  | "createOrganization" | "getOrganization" | "getOrganizationBySlug" | "updateOrganization" | "deleteOrganization"
  | "listOrganizationsByUserId" | "getOrganizationMember" | "listOrganizationMembers" | "updateOrganizationMemberRole"
  | "removeOrganizationMember" | "createOrganizationInvitation" | "getOrganizationInvitation"
  | "getOrganizationInvitationByTokenHash" | "listOrganizationInvitations" | "revokeOrganizationInvitation"
  | "acceptOrganizationInvitation"

export function organizationMethods(db: Executor): Pick<XataAdapterMethods, OrganizationMethods> {
  return {
    // One statement: the organization and its owner's membership, or (slug taken) neither.
    async createOrganization({ id, name, slug, ownerId }) {
      const rows = await db.query(
        `WITH o AS (
           INSERT INTO authlib_organizations (xata_id, name, slug, "createdAt") VALUES ($1::text, $2::text, $3::text, now())
           ON CONFLICT (slug) DO NOTHING RETURNING ${ORGANIZATION_COLUMNS}),
         m AS (INSERT INTO authlib_organization_members (organization, "user", role, "joinedAt") SELECT xata_id, $4::text, 'owner', "createdAt" FROM o)
         SELECT ${ORGANIZATION_COLUMNS} FROM o`,
        [requiredText(id, "id"), requiredText(name, "name"), requiredText(slug, "slug"), requiredText(ownerId, "ownerId")],
      )
      return toOrganization(first(rows)) ?? "slug-taken"
    },
    async getOrganization(id) {
      if (!lookupable(id)) return null
      return toOrganization(first(await db.query(`SELECT ${ORGANIZATION_COLUMNS} FROM authlib_organizations WHERE xata_id = $1::text`, [id])))
    },
    async getOrganizationBySlug(slug) {
      if (!lookupable(slug)) return null
      return toOrganization(first(await db.query(`SELECT ${ORGANIZATION_COLUMNS} FROM authlib_organizations WHERE slug = $1::text`, [slug])))
    },
    // The unique slug index decides, so two renames to one slug cannot both pass a check.
    async updateOrganization(id, patch) {
      if (!lookupable(id)) return null
      try {
        const rows = await db.query(
          `UPDATE authlib_organizations SET name = COALESCE($2::text, name), slug = COALESCE($3::text, slug) WHERE xata_id = $1::text RETURNING ${ORGANIZATION_COLUMNS}`,
          [id, text(patch.name, "name"), text(patch.slug, "slug")],
        )
        return toOrganization(first(rows))
      } catch (err) {
        if (slugTaken(err)) return "slug-taken"
        throw err
      }
    },
    // Members and invitations go with it (ON DELETE CASCADE).
    async deleteOrganization(id) {
      if (!lookupable(id)) return false
      return (await db.query(`DELETE FROM authlib_organizations WHERE xata_id = $1::text RETURNING 1 AS done`, [id])).length === 1
    },
    async listOrganizationsByUserId(userId) {
      if (!lookupable(userId)) return []
      const rows = await db.query(
        `SELECT o.xata_id, o.name, o.slug, o."createdAt", m.role FROM authlib_organization_members m
         JOIN authlib_organizations o ON o.xata_id = m.organization WHERE m."user" = $1::text ORDER BY ${MEMBERSHIP_ORDER}`,
        [userId],
      )
      return present(rows.map((row) => {
        const organization = toOrganization(row)
        const role = asString(row.role)
        return organization && role !== null ? { ...organization, role } : null
      }))
    },
    async getOrganizationMember(organizationId, userId) {
      if (!lookupable(organizationId, userId)) return null
      return toMember(first(await db.query(`SELECT ${MEMBER_COLUMNS} FROM authlib_organization_members WHERE organization = $1::text AND "user" = $2::text`, [organizationId, userId])))
    },
    async listOrganizationMembers(organizationId) {
      if (!lookupable(organizationId)) return []
      const rows = await db.query(
        `SELECT m.organization, m."user", m.role, m."joinedAt", u.name, u.email FROM authlib_organization_members m
         JOIN authlib_users u ON u.xata_id = m."user" WHERE m.organization = $1::text ORDER BY ${MEMBERSHIP_ORDER}`,
        [organizationId],
      )
      return present(rows.map((row) => {
        const member = toMember(row)
        return member && { ...member, name: asString(row.name), email: asString(row.email) }
      }))
    },
    async updateOrganizationMemberRole(organizationId, userId, role, actor) {
      if (!lookupable(organizationId, userId)) return null
      const rows = await db.query(
        `SELECT outcome, member_user, member_role, member_joined FROM authlib_organization_set_role($1::text, $2::text, $3::text, $4::text, $5::text)`,
        [organizationId, userId, requiredText(role, "role"), ...actorParams(actor)],
      )
      return guardedMember(rows, organizationId)
    },
    async removeOrganizationMember(organizationId, userId, actor) {
      if (!lookupable(organizationId, userId)) return null
      const rows = await db.query(
        `SELECT outcome, member_user, member_role, member_joined FROM authlib_organization_remove_member($1::text, $2::text, $3::text, $4::text)`,
        [organizationId, userId, ...actorParams(actor)],
      )
      return guardedMember(rows, organizationId)
    },
    async createOrganizationInvitation(invitation, { now, membershipLimit }) {
      const expires = requiredTimestamp(invitation.expires, "expires")
      const params = [
        requiredText(invitation.id, "id"), requiredText(invitation.organizationId, "organizationId"), requiredText(invitation.email, "email"),
        requiredText(invitation.role, "role"), requiredText(invitation.inviterId, "inviterId"), requiredText(invitation.tokenHash, "tokenHash"),
        expires, requiredTimestamp(now, "now"), limit(membershipLimit),
      ]
      const row = first(await db.query(
        `SELECT outcome, invitation_created FROM authlib_organization_invite($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::timestamptz, $8::timestamptz, $9::integer)`,
        params,
      ))
      const outcome = row?.outcome
      if (outcome === "member-exists" || outcome === "limit-reached") return outcome
      // Deleted since core checked the inviter's membership: the caller learns it as core would have.
      if (outcome === "organization-unknown") throw new OrganizationError("The organization does not exist", { code: "ORGANIZATION_UNKNOWN" })
      const createdAt = row && asDate(row.invitation_created)
      if (outcome !== "created" || !createdAt) throw new XataAdapterError("the database returned no invitation for the write", { code: "QUERY_FAILED" })
      const { id, organizationId, email, role, inviterId, tokenHash } = invitation
      return { id, organizationId, email, role, inviterId, tokenHash, expires: new Date(expires), status: "pending", createdAt }
    },
    async getOrganizationInvitation(id) {
      if (!lookupable(id)) return null
      return toInvitation(first(await db.query(`SELECT ${INVITATION_COLUMNS} FROM authlib_organization_invitations WHERE xata_id = $1::text`, [id])))
    },
    async getOrganizationInvitationByTokenHash(tokenHash) {
      if (!lookupable(tokenHash)) return null
      return toInvitation(first(await db.query(`SELECT ${INVITATION_COLUMNS} FROM authlib_organization_invitations WHERE "tokenHash" = $1::text`, [tokenHash])))
    },
    async listOrganizationInvitations(organizationId) {
      if (!lookupable(organizationId)) return []
      const rows = await db.query(
        `SELECT ${INVITATION_COLUMNS} FROM authlib_organization_invitations WHERE organization = $1::text ORDER BY "createdAt" DESC, xata_createdat DESC, xata_id DESC`,
        [organizationId],
      )
      return present(rows.map(toInvitation))
    },
    async revokeOrganizationInvitation(id) {
      if (!lookupable(id)) return false
      return (await db.query(`UPDATE authlib_organization_invitations SET status = 'revoked' WHERE xata_id = $1::text AND status = 'pending' RETURNING 1 AS done`, [id])).length === 1
    },
    // The invitation row's lock orders concurrent callers; each re-checks `status = 'pending'` on the
    // row as the one before left it, so one finds it. A member already there keeps their row (and role).
    async acceptOrganizationInvitation({ tokenHash, userId, email, now }) {
      if (!lookupable(tokenHash, userId, email)) return null
      const rows = await db.query(
        `WITH used AS (
           UPDATE authlib_organization_invitations SET status = 'accepted'
           WHERE "tokenHash" = $1::text AND status = 'pending' AND expires > $4::timestamptz AND lower(email) = lower($3::text)
             AND EXISTS (SELECT 1 FROM authlib_users WHERE xata_id = $2::text)
           RETURNING organization, role)
         INSERT INTO authlib_organization_members (organization, "user", role, "joinedAt")
         SELECT organization, $2::text, role, $4::timestamptz FROM used
         ON CONFLICT (organization, "user") DO UPDATE SET role = authlib_organization_members.role
         RETURNING ${MEMBER_COLUMNS}`,
        [tokenHash, userId, email, requiredTimestamp(now, "now")],
      )
      return toMember(first(rows))
    },
  }
}
