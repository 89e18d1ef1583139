/**
 * Migrations 9-11 of the schema (`schema.ts` lists every step): organizations and enterprise SSO,
 * with the PL/pgSQL functions that keep their rules under concurrent writes.
 */
import { META, link } from "./schema-columns.js"

/** The owner role of organizations (core's `OWNER_ROLE`): an organization always keeps a member with it. */
const OWNER = "'owner'"

/** The SQLSTATE `deleteUser` fails with when the user is the last owner of an organization with other members. */
export const LAST_OWNER_STATE = "AL001"
/** The start of that error's message, by which it is recognised where only the message travels (the Xata endpoint). */
export const LAST_OWNER_MESSAGE = "authlib: the user is the last owner of an organization with other members"

/**
 * Takes the lock of organization `org` (a row lock on its `authlib_organizations` row) and answers
 * from the function when there is none. Every write that guards a rule of organizations takes it
 * first, inside a function: a function's statements each see what was committed before they start
 * (Postgres gives a VOLATILE function a fresh snapshot per statement under READ COMMITTED), so the
 * counts read after the lock include what the previous holder wrote. A check in a plain statement
 * would read its snapshot from before the wait and let two owners demote each other. `NO KEY
 * UPDATE` leaves the key-share lock of a foreign key free: an acceptance adding a member waits for
 * nobody.
 */
const lockOrganization = (org: string, otherwise: string) =>
  `PERFORM 1 FROM authlib_organizations WHERE xata_id = ${org} FOR NO KEY UPDATE;
  IF NOT FOUND THEN ${otherwise} END IF;`

/** Whether `p_actor` (when given) is still a member of `p_organization` with the role `p_actor_role`. */
const ACTOR_HOLDS = `(p_actor IS NULL OR EXISTS (SELECT 1 FROM authlib_organization_members
    WHERE organization = p_organization AND "user" = p_actor AND role = p_actor_role))`

/** How many owners `p_organization` has, read after its lock. */
const OWNERS = `(SELECT count(*) FROM authlib_organization_members WHERE organization = p_organization AND role = ${OWNER})`

/** `updateOrganizationMemberRole`: the actor's role, then the last owner, checked under the organization's lock. */
const SET_ROLE_FUNCTION = `CREATE OR REPLACE FUNCTION authlib_organization_set_role(p_organization text, p_user text, p_role text, p_actor text, p_actor_role text)
RETURNS TABLE (outcome text, member_user text, member_role text, member_joined timestamptz) LANGUAGE plpgsql AS $$
DECLARE
  v_role text;
BEGIN
  ${lockOrganization("p_organization", "RETURN;")}
  IF NOT ${ACTOR_HOLDS} THEN RETURN; END IF;
  SELECT role INTO v_role FROM authlib_organization_members WHERE organization = p_organization AND "user" = p_user;
  IF NOT FOUND THEN RETURN; END IF;
  IF v_role = ${OWNER} AND p_role IS DISTINCT FROM ${OWNER} AND ${OWNERS} < 2 THEN
    outcome := 'last-owner';
    RETURN NEXT;
    RETURN;
  END IF;
  UPDATE authlib_organization_members SET role = p_role WHERE organization = p_organization AND "user" = p_user
    RETURNING 'updated', "user", role, "joinedAt" INTO outcome, member_user, member_role, member_joined;
  RETURN NEXT;
END
$$`

/** `removeOrganizationMember`: as `authlib_organization_set_role`, deleting the membership. */
const REMOVE_MEMBER_FUNCTION = `CREATE OR REPLACE FUNCTION authlib_organization_remove_member(p_organization text, p_user text, p_actor text, p_actor_role text)
RETURNS TABLE (outcome text, member_user text, member_role text, member_joined timestamptz) LANGUAGE plpgsql AS $$
DECLARE
  v_role text;
BEGIN
  ${lockOrganization("p_organization", "RETURN;")}
  IF NOT ${ACTOR_HOLDS} THEN RETURN; END IF;
  SELECT role INTO v_role FROM authlib_organization_members WHERE organization = p_organization AND "user" = p_user;
  IF NOT FOUND THEN RETURN; END IF;
  IF v_role = ${OWNER} AND ${OWNERS} < 2 THEN
    outcome := 'last-owner';
    RETURN NEXT;
    RETURN;
  END IF;
  DELETE FROM authlib_organization_members WHERE organization = p_organization AND "user" = p_user
    RETURNING 'removed', "user", role, "joinedAt" INTO outcome, member_user, member_role, member_joined;
  RETURN NEXT;
END
$$`

/**
 * `createOrganizationInvitation`: refuses an address a member's user has, counts members and live
 * pending invitations (the one replaced not counted) against `p_limit`, then replaces the pending
 * invitation for the address, all under the organization's lock, so parallel invitations never
 * pass the limit nor leave two pending invitations for one address.
 */
const INVITE_FUNCTION = `CREATE OR REPLACE FUNCTION authlib_organization_invite(p_id text, p_organization text, p_email text, p_role text, p_inviter text,
  p_token_hash text, p_expires timestamptz, p_now timestamptz, p_limit integer)
RETURNS TABLE (outcome text, invitation_created timestamptz) LANGUAGE plpgsql AS $$
BEGIN
  ${lockOrganization("p_organization", "outcome := 'organization-unknown'; RETURN NEXT; RETURN;")}
  IF EXISTS (SELECT 1 FROM authlib_users u JOIN authlib_organization_members m ON m."user" = u.xata_id
      WHERE lower(u.email) = lower(p_email) AND m.organization = p_organization) THEN
    outcome := 'member-exists';
    RETURN NEXT;
    RETURN;
  END IF;
  IF p_limit IS NOT NULL AND (SELECT count(*) FROM authlib_organization_members WHERE organization = p_organization)
      + (SELECT count(*) FROM authlib_organization_invitations WHERE organization = p_organization AND status = 'pending'
          AND expires > p_now AND lower(email) IS DISTINCT FROM lower(p_email)) >= p_limit THEN
    outcome := 'limit-reached';
    RETURN NEXT;
    RETURN;
  END IF;
  DELETE FROM authlib_organization_invitations WHERE organization = p_organization AND status = 'pending' AND lower(email) = lower(p_email);
  INSERT INTO authlib_organization_invitations (xata_id, organization, email, role, inviter, "tokenHash", expires, status, "createdAt")
    VALUES (p_id, p_organization, p_email, p_role, p_inviter, p_token_hash, p_expires, 'pending', p_now)
    RETURNING 'created', "createdAt" INTO outcome, invitation_created;
  RETURN NEXT;
END
$$`

/**
 * The organizations' part of `deleteUser`, run by its statement before the user row goes: locks
 * the user's organizations (in id order, the same for every caller, so two deletions never wait on
 * each other in a circle), fails with `LAST_OWNER_STATE` when the user is the only owner of one
 * with other members (the whole statement, and so the deletion, is undone), then deletes the
 * organizations the user is the only member of and the user's memberships.
 */
const RELEASE_USER_FUNCTION = `CREATE OR REPLACE FUNCTION authlib_organization_release_user(p_user text)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM authlib_organizations WHERE xata_id IN (SELECT organization FROM authlib_organization_members WHERE "user" = p_user)
    ORDER BY xata_id FOR NO KEY UPDATE;
  IF EXISTS (SELECT 1 FROM authlib_organization_members m WHERE m."user" = p_user AND m.role = ${OWNER}
      AND EXISTS (SELECT 1 FROM authlib_organization_members o WHERE o.organization = m.organization AND o."user" IS DISTINCT FROM p_user)
      AND NOT EXISTS (SELECT 1 FROM authlib_organization_members o WHERE o.organization = m.organization AND o."user" IS DISTINCT FROM p_user
        AND o.role = ${OWNER})) THEN
    RAISE EXCEPTION '${LAST_OWNER_MESSAGE}' USING ERRCODE = '${LAST_OWNER_STATE}';
  END IF;
  DELETE FROM authlib_organizations o WHERE o.xata_id IN (SELECT organization FROM authlib_organization_members WHERE "user" = p_user)
    AND NOT EXISTS (SELECT 1 FROM authlib_organization_members x WHERE x.organization = o.xata_id AND x."user" IS DISTINCT FROM p_user);
  DELETE FROM authlib_organization_members WHERE "user" = p_user;
  RETURN true;
END
$$`

/**
 * Migration 9: organizations. `authlib_organizations` (name, unique slug), their members (one row
 * per organization and user, with the role) and invitations (the address as typed, the role, who
 * sent it, the SHA-256 of its token as core computed it, unique, its expiry and status). Members and
 * invitations go with their organization (`ON DELETE CASCADE`); the inviter is a plain id, so an
 * invitation outlives the member who sent it, as it outlives their removal. Every lookup of the
 * adapter has its index: a membership by (organization, user) and by user, invitations by token
 * hash and by organization, a pending invitation by (organization, lower-cased address), unique
 * (which also keeps one pending invitation per address), and users by lower-cased address (the
 * member check of an invitation). The four functions are the rule-guarding writes (see
 * `lockOrganization`). Additive: no existing table changes.
 */
export const ORGANIZATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS authlib_organizations (
  ${META},
  name text, slug text, "createdAt" timestamptz
)`,
  `CREATE OR REPLACE TRIGGER authlib_organizations_touch BEFORE UPDATE ON authlib_organizations FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch()`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_organizations_slug_key ON authlib_organizations (slug)`,
  `CREATE TABLE IF NOT EXISTS authlib_organization_members (
  ${META},
  organization ${link("authlib_organizations")}, "user" ${link("authlib_users")}, role text, "joinedAt" timestamptz
)`,
  `CREATE OR REPLACE TRIGGER authlib_organization_members_touch BEFORE UPDATE ON authlib_organization_members FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch()`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_organization_members_key ON authlib_organization_members (organization, "user")`,
  `CREATE INDEX IF NOT EXISTS authlib_organization_members_user_idx ON authlib_organization_members ("user")`,
  `CREATE TABLE IF NOT EXISTS authlib_organization_invitations (
  ${META},
  organization ${link("authlib_organizations")}, email text, role text, inviter text, "tokenHash" text, expires timestamptz,
  status text, "createdAt" timestamptz
)`,
  `CREATE OR REPLACE TRIGGER authlib_organization_invitations_touch BEFORE UPDATE ON authlib_organization_invitations FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch()`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_organization_invitations_token_key ON authlib_organization_invitations ("tokenHash")`,
  `CREATE INDEX IF NOT EXISTS authlib_organization_invitations_organization_idx ON authlib_organization_invitations (organization, "createdAt")`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_organization_invitations_pending_key ON authlib_organization_invitations (organization, lower(email)) WHERE status = 'pending'`,
  `CREATE INDEX IF NOT EXISTS authlib_users_email_lower_idx ON authlib_users (lower(email))`,
  SET_ROLE_FUNCTION,
  REMOVE_MEMBER_FUNCTION,
  INVITE_FUNCTION,
  RELEASE_USER_FUNCTION,
]

/** Enterprise SSO: connections per organization (sealed secrets) and their domains, one verified row per domain. */
export const SSO: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS authlib_sso_connections (
  ${META},
  organization ${link("authlib_organizations")}, type text, "defaultRole" text, "idpEntityId" text, "idpSsoUrl" text,
  "idpCertificates" text[], "spCertificate" text, "spPrivateKeySealed" text, issuer text, "clientId" text,
  "clientSecretSealed" text, "createdAt" timestamptz
)`,
  `CREATE OR REPLACE TRIGGER authlib_sso_connections_touch BEFORE UPDATE ON authlib_sso_connections FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch()`,
  `CREATE INDEX IF NOT EXISTS authlib_sso_connections_organization_idx ON authlib_sso_connections (organization)`,
  `CREATE TABLE IF NOT EXISTS authlib_sso_domains (
  ${META},
  connection ${link("authlib_sso_connections")}, organization text, domain text, "verificationToken" text, "verifiedAt" timestamptz
)`,
  `CREATE OR REPLACE TRIGGER authlib_sso_domains_touch BEFORE UPDATE ON authlib_sso_domains FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch()`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_sso_domains_key ON authlib_sso_domains (connection, domain)`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_sso_domains_verified_key ON authlib_sso_domains (domain) WHERE "verifiedAt" IS NOT NULL`,
]

/**
 * `addOrganizationMember` of the SSO port: under the organization's lock (as invitations are made),
 * an existing membership is answered as it is; else, with `p_limit`, members plus pending unexpired
 * invitations (one to the user's own address not counted) must leave a seat, or `limit-reached`.
 * Each statement reads after the lock, so of concurrent joins for the last seat one is added.
 * No row for an unknown organization or user.
 */
const SSO_JOIN_FUNCTION = `CREATE OR REPLACE FUNCTION authlib_sso_join(p_organization text, p_user text, p_role text, p_now timestamptz, p_limit integer)
RETURNS TABLE (outcome text, organization text, "user" text, role text, "joinedAt" timestamptz) LANGUAGE plpgsql AS $$
DECLARE
  v_email text;
BEGIN
  ${lockOrganization("p_organization", "RETURN;")}
  SELECT u.email INTO v_email FROM authlib_users u WHERE u.xata_id = p_user;
  IF NOT FOUND THEN RETURN; END IF;
  RETURN QUERY SELECT 'member'::text, m.organization, m."user", m.role, m."joinedAt" FROM authlib_organization_members m
    WHERE m.organization = p_organization AND m."user" = p_user;
  IF FOUND THEN RETURN; END IF;
  IF p_limit IS NOT NULL AND (SELECT count(*) FROM authlib_organization_members m WHERE m.organization = p_organization)
      + (SELECT count(*) FROM authlib_organization_invitations i WHERE i.organization = p_organization AND i.status = 'pending'
          AND i.expires > p_now AND lower(i.email) IS DISTINCT FROM lower(v_email)) >= p_limit THEN
    outcome := 'limit-reached';
    RETURN NEXT;
    RETURN;
  END IF;
  RETURN QUERY INSERT INTO authlib_organization_members AS m (organization, "user", role, "joinedAt") VALUES (p_organization, p_user, p_role, p_now)
    RETURNING 'member'::text, m.organization, m."user", m.role, m."joinedAt";
END
$$`

/** SSO connections' settings (`requireIdpMfa`, `allowIdpInitiated`) and the limited join. */
export const SSO_SETTINGS: readonly string[] = [
  `ALTER TABLE authlib_sso_connections ADD COLUMN IF NOT EXISTS "requireIdpMfa" boolean DEFAULT false`,
  `ALTER TABLE authlib_sso_connections ADD COLUMN IF NOT EXISTS "allowIdpInitiated" boolean DEFAULT false`,
  SSO_JOIN_FUNCTION,
]
