-- @authlib/xata-adapter schema (generated from src/schema.ts; apply with `authlib-xata migrate`).

CREATE TABLE IF NOT EXISTS authlib_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);

-- migration 1: spec 2.7 tables, authenticators, indexes
CREATE OR REPLACE FUNCTION authlib_xata_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.xata_version := OLD.xata_version + 1;
  NEW.xata_updatedat := now();
  RETURN NEW;
END
$$;

CREATE TABLE IF NOT EXISTS authlib_users (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  email text, "emailVerified" timestamptz, image text, name text
);

CREATE OR REPLACE TRIGGER authlib_users_touch BEFORE UPDATE ON authlib_users FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE TABLE IF NOT EXISTS authlib_accounts (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  access_token text, expires_at bigint, id_token text, provider text, "providerAccountId" text,
  refresh_token text, scope text, session_state text, token_type text, type text, "user" text REFERENCES authlib_users(xata_id) ON DELETE CASCADE
);

CREATE OR REPLACE TRIGGER authlib_accounts_touch BEFORE UPDATE ON authlib_accounts FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE TABLE IF NOT EXISTS authlib_sessions (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  expires timestamptz, "sessionToken" text, "user" text REFERENCES authlib_users(xata_id) ON DELETE CASCADE
);

CREATE OR REPLACE TRIGGER authlib_sessions_touch BEFORE UPDATE ON authlib_sessions FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE TABLE IF NOT EXISTS authlib_users_accounts (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  account text REFERENCES authlib_accounts(xata_id) ON DELETE CASCADE, "user" text REFERENCES authlib_users(xata_id) ON DELETE CASCADE
);

CREATE OR REPLACE TRIGGER authlib_users_accounts_touch BEFORE UPDATE ON authlib_users_accounts FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE TABLE IF NOT EXISTS authlib_users_sessions (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  session text REFERENCES authlib_sessions(xata_id) ON DELETE CASCADE, "user" text REFERENCES authlib_users(xata_id) ON DELETE CASCADE
);

CREATE OR REPLACE TRIGGER authlib_users_sessions_touch BEFORE UPDATE ON authlib_users_sessions FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE TABLE IF NOT EXISTS "authlib_verificationTokens" (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  expires timestamptz, identifier text, token text
);

CREATE OR REPLACE TRIGGER authlib_verificationtokens_touch BEFORE UPDATE ON "authlib_verificationTokens" FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE TABLE IF NOT EXISTS authlib_authenticators (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  "credentialID" text, "user" text REFERENCES authlib_users(xata_id) ON DELETE CASCADE, "providerAccountId" text,
  counter bigint, "credentialBackedUp" boolean, "credentialPublicKey" text, "credentialDeviceType" text, transports text
);

CREATE OR REPLACE TRIGGER authlib_authenticators_touch BEFORE UPDATE ON authlib_authenticators FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE UNIQUE INDEX IF NOT EXISTS authlib_users_email_key ON authlib_users (email);

CREATE UNIQUE INDEX IF NOT EXISTS authlib_accounts_provider_key ON authlib_accounts (provider, "providerAccountId");

CREATE INDEX IF NOT EXISTS authlib_accounts_user_idx ON authlib_accounts ("user");

CREATE UNIQUE INDEX IF NOT EXISTS authlib_sessions_token_key ON authlib_sessions ("sessionToken");

CREATE INDEX IF NOT EXISTS authlib_sessions_user_idx ON authlib_sessions ("user");

CREATE UNIQUE INDEX IF NOT EXISTS authlib_users_accounts_account_key ON authlib_users_accounts (account);

CREATE INDEX IF NOT EXISTS authlib_users_accounts_user_idx ON authlib_users_accounts ("user");

CREATE UNIQUE INDEX IF NOT EXISTS authlib_users_sessions_session_key ON authlib_users_sessions (session);

CREATE INDEX IF NOT EXISTS authlib_users_sessions_user_idx ON authlib_users_sessions ("user");

CREATE UNIQUE INDEX IF NOT EXISTS "authlib_verificationTokens_key" ON "authlib_verificationTokens" (identifier, token);

CREATE UNIQUE INDEX IF NOT EXISTS authlib_authenticators_credential_key ON authlib_authenticators ("credentialID");

CREATE INDEX IF NOT EXISTS authlib_authenticators_user_idx ON authlib_authenticators ("user");
INSERT INTO authlib_migrations (version, name) VALUES (1, 'spec 2.7 tables, authenticators, indexes') ON CONFLICT (version) DO NOTHING;

-- migration 2: authenticators: name, createdAt, lastUsedAt
ALTER TABLE authlib_authenticators ADD COLUMN IF NOT EXISTS name text;

ALTER TABLE authlib_authenticators ADD COLUMN IF NOT EXISTS "createdAt" timestamptz;

ALTER TABLE authlib_authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" timestamptz;

UPDATE authlib_authenticators SET "createdAt" = xata_createdat WHERE "createdAt" IS NULL;
INSERT INTO authlib_migrations (version, name) VALUES (2, 'authenticators: name, createdAt, lastUsedAt') ON CONFLICT (version) DO NOTHING;

-- migration 3: rate limits: authlib_rate_limits
CREATE TABLE IF NOT EXISTS authlib_rate_limits (
  key text PRIMARY KEY CHECK (key ~ '^[0-9a-f]{64}$'),
  count integer NOT NULL,
  reset_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS authlib_rate_limits_reset_at_idx ON authlib_rate_limits (reset_at);
INSERT INTO authlib_migrations (version, name) VALUES (3, 'rate limits: authlib_rate_limits') ON CONFLICT (version) DO NOTHING;

-- migration 4: sessions: createdAt, clientDescription, clientNetwork, error; users: sessionEpoch
ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS "createdAt" timestamptz;

ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS "clientDescription" text;

ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS "clientNetwork" text;

ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS error text;

UPDATE authlib_sessions SET "createdAt" = xata_createdat WHERE "createdAt" IS NULL;

ALTER TABLE authlib_users ADD COLUMN IF NOT EXISTS "sessionEpoch" integer;
INSERT INTO authlib_migrations (version, name) VALUES (4, 'sessions: createdAt, clientDescription, clientNetwork, error; users: sessionEpoch') ON CONFLICT (version) DO NOTHING;

-- migration 6: two-factor: authlib_two_factors
CREATE TABLE IF NOT EXISTS authlib_two_factors (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  "user" text REFERENCES authlib_users(xata_id) ON DELETE CASCADE, secret text, enabled boolean, "lastUsedStep" bigint, "backupCodes" text[]
);

CREATE OR REPLACE TRIGGER authlib_two_factors_touch BEFORE UPDATE ON authlib_two_factors FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE UNIQUE INDEX IF NOT EXISTS authlib_two_factors_user_key ON authlib_two_factors ("user");
INSERT INTO authlib_migrations (version, name) VALUES (6, 'two-factor: authlib_two_factors') ON CONFLICT (version) DO NOTHING;

-- migration 7: sessions: authTime, amr
ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS "authTime" bigint;

ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS amr text[];
INSERT INTO authlib_migrations (version, name) VALUES (7, 'sessions: authTime, amr') ON CONFLICT (version) DO NOTHING;

-- migration 8: two-factor: failedAttempts
ALTER TABLE authlib_two_factors ADD COLUMN IF NOT EXISTS "failedAttempts" integer DEFAULT 0;
INSERT INTO authlib_migrations (version, name) VALUES (8, 'two-factor: failedAttempts') ON CONFLICT (version) DO NOTHING;

-- migration 9: organizations: authlib_organizations, authlib_organization_members, authlib_organization_invitations
CREATE TABLE IF NOT EXISTS authlib_organizations (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  name text, slug text, "createdAt" timestamptz
);

CREATE OR REPLACE TRIGGER authlib_organizations_touch BEFORE UPDATE ON authlib_organizations FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE UNIQUE INDEX IF NOT EXISTS authlib_organizations_slug_key ON authlib_organizations (slug);

CREATE TABLE IF NOT EXISTS authlib_organization_members (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  organization text REFERENCES authlib_organizations(xata_id) ON DELETE CASCADE, "user" text REFERENCES authlib_users(xata_id) ON DELETE CASCADE, role text, "joinedAt" timestamptz
);

CREATE OR REPLACE TRIGGER authlib_organization_members_touch BEFORE UPDATE ON authlib_organization_members FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE UNIQUE INDEX IF NOT EXISTS authlib_organization_members_key ON authlib_organization_members (organization, "user");

CREATE INDEX IF NOT EXISTS authlib_organization_members_user_idx ON authlib_organization_members ("user");

CREATE TABLE IF NOT EXISTS authlib_organization_invitations (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  organization text REFERENCES authlib_organizations(xata_id) ON DELETE CASCADE, email text, role text, inviter text, "tokenHash" text, expires timestamptz,
  status text, "createdAt" timestamptz
);

CREATE OR REPLACE TRIGGER authlib_organization_invitations_touch BEFORE UPDATE ON authlib_organization_invitations FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE UNIQUE INDEX IF NOT EXISTS authlib_organization_invitations_token_key ON authlib_organization_invitations ("tokenHash");

CREATE INDEX IF NOT EXISTS authlib_organization_invitations_organization_idx ON authlib_organization_invitations (organization, "createdAt");

CREATE UNIQUE INDEX IF NOT EXISTS authlib_organization_invitations_pending_key ON authlib_organization_invitations (organization, lower(email)) WHERE status = 'pending';

CREATE INDEX IF NOT EXISTS authlib_users_email_lower_idx ON authlib_users (lower(email));

CREATE OR REPLACE FUNCTION authlib_organization_set_role(p_organization text, p_user text, p_role text, p_actor text, p_actor_role text)
RETURNS TABLE (outcome text, member_user text, member_role text, member_joined timestamptz) LANGUAGE plpgsql AS $$
DECLARE
  v_role text;
BEGIN
  PERFORM 1 FROM authlib_organizations WHERE xata_id = p_organization FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN; END IF;
  IF NOT (p_actor IS NULL OR EXISTS (SELECT 1 FROM authlib_organization_members
    WHERE organization = p_organization AND "user" = p_actor AND role = p_actor_role)) THEN RETURN; END IF;
  SELECT role INTO v_role FROM authlib_organization_members WHERE organization = p_organization AND "user" = p_user;
  IF NOT FOUND THEN RETURN; END IF;
  IF v_role = 'owner' AND p_role IS DISTINCT FROM 'owner' AND (SELECT count(*) FROM authlib_organization_members WHERE organization = p_organization AND role = 'owner') < 2 THEN
    outcome := 'last-owner';
    RETURN NEXT;
    RETURN;
  END IF;
  UPDATE authlib_organization_members SET role = p_role WHERE organization = p_organization AND "user" = p_user
    RETURNING 'updated', "user", role, "joinedAt" INTO outcome, member_user, member_role, member_joined;
  RETURN NEXT;
END
$$;

CREATE OR REPLACE FUNCTION authlib_organization_remove_member(p_organization text, p_user text, p_actor text, p_actor_role text)
RETURNS TABLE (outcome text, member_user text, member_role text, member_joined timestamptz) LANGUAGE plpgsql AS $$
DECLARE
  v_role text;
BEGIN
  PERFORM 1 FROM authlib_organizations WHERE xata_id = p_organization FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN; END IF;
  IF NOT (p_actor IS NULL OR EXISTS (SELECT 1 FROM authlib_organization_members
    WHERE organization = p_organization AND "user" = p_actor AND role = p_actor_role)) THEN RETURN; END IF;
  SELECT role INTO v_role FROM authlib_organization_members WHERE organization = p_organization AND "user" = p_user;
  IF NOT FOUND THEN RETURN; END IF;
  IF v_role = 'owner' AND (SELECT count(*) FROM authlib_organization_members WHERE organization = p_organization AND role = 'owner') < 2 THEN
    outcome := 'last-owner';
    RETURN NEXT;
    RETURN;
  END IF;
  DELETE FROM authlib_organization_members WHERE organization = p_organization AND "user" = p_user
    RETURNING 'removed', "user", role, "joinedAt" INTO outcome, member_user, member_role, member_joined;
  RETURN NEXT;
END
$$;

CREATE OR REPLACE FUNCTION authlib_organization_invite(p_id text, p_organization text, p_email text, p_role text, p_inviter text,
  p_token_hash text, p_expires timestamptz, p_now timestamptz, p_limit integer)
RETURNS TABLE (outcome text, invitation_created timestamptz) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM authlib_organizations WHERE xata_id = p_organization FOR NO KEY UPDATE;
  IF NOT FOUND THEN outcome := 'organization-unknown'; RETURN NEXT; RETURN; END IF;
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
$$;

CREATE OR REPLACE FUNCTION authlib_organization_release_user(p_user text)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM authlib_organizations WHERE xata_id IN (SELECT organization FROM authlib_organization_members WHERE "user" = p_user)
    ORDER BY xata_id FOR NO KEY UPDATE;
  IF EXISTS (SELECT 1 FROM authlib_organization_members m WHERE m."user" = p_user AND m.role = 'owner'
      AND EXISTS (SELECT 1 FROM authlib_organization_members o WHERE o.organization = m.organization AND o."user" IS DISTINCT FROM p_user)
      AND NOT EXISTS (SELECT 1 FROM authlib_organization_members o WHERE o.organization = m.organization AND o."user" IS DISTINCT FROM p_user
        AND o.role = 'owner')) THEN
    RAISE EXCEPTION 'authlib: the user is the last owner of an organization with other members' USING ERRCODE = 'AL001';
  END IF;
  DELETE FROM authlib_organizations o WHERE o.xata_id IN (SELECT organization FROM authlib_organization_members WHERE "user" = p_user)
    AND NOT EXISTS (SELECT 1 FROM authlib_organization_members x WHERE x.organization = o.xata_id AND x."user" IS DISTINCT FROM p_user);
  DELETE FROM authlib_organization_members WHERE "user" = p_user;
  RETURN true;
END
$$;
INSERT INTO authlib_migrations (version, name) VALUES (9, 'organizations: authlib_organizations, authlib_organization_members, authlib_organization_invitations') ON CONFLICT (version) DO NOTHING;

-- migration 10: enterprise SSO: authlib_sso_connections, authlib_sso_domains
CREATE TABLE IF NOT EXISTS authlib_sso_connections (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  organization text REFERENCES authlib_organizations(xata_id) ON DELETE CASCADE, type text, "defaultRole" text, "idpEntityId" text, "idpSsoUrl" text,
  "idpCertificates" text[], "spCertificate" text, "spPrivateKeySealed" text, issuer text, "clientId" text,
  "clientSecretSealed" text, "createdAt" timestamptz
);

CREATE OR REPLACE TRIGGER authlib_sso_connections_touch BEFORE UPDATE ON authlib_sso_connections FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE INDEX IF NOT EXISTS authlib_sso_connections_organization_idx ON authlib_sso_connections (organization);

CREATE TABLE IF NOT EXISTS authlib_sso_domains (
  xata_id text PRIMARY KEY DEFAULT ('rec_' || replace(gen_random_uuid()::text, '-', '')) CHECK (length(xata_id) < 256),
  xata_version integer NOT NULL DEFAULT 0,
  xata_createdat timestamptz NOT NULL DEFAULT now(),
  xata_updatedat timestamptz NOT NULL DEFAULT now(),
  connection text REFERENCES authlib_sso_connections(xata_id) ON DELETE CASCADE, organization text, domain text, "verificationToken" text, "verifiedAt" timestamptz
);

CREATE OR REPLACE TRIGGER authlib_sso_domains_touch BEFORE UPDATE ON authlib_sso_domains FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch();

CREATE UNIQUE INDEX IF NOT EXISTS authlib_sso_domains_key ON authlib_sso_domains (connection, domain);

CREATE UNIQUE INDEX IF NOT EXISTS authlib_sso_domains_verified_key ON authlib_sso_domains (domain) WHERE "verifiedAt" IS NOT NULL;
INSERT INTO authlib_migrations (version, name) VALUES (10, 'enterprise SSO: authlib_sso_connections, authlib_sso_domains') ON CONFLICT (version) DO NOTHING;

-- migration 11: enterprise SSO: requireIdpMfa, allowIdpInitiated, authlib_sso_join
ALTER TABLE authlib_sso_connections ADD COLUMN IF NOT EXISTS "requireIdpMfa" boolean DEFAULT false;

ALTER TABLE authlib_sso_connections ADD COLUMN IF NOT EXISTS "allowIdpInitiated" boolean DEFAULT false;

CREATE OR REPLACE FUNCTION authlib_sso_join(p_organization text, p_user text, p_role text, p_now timestamptz, p_limit integer)
RETURNS TABLE (outcome text, organization text, "user" text, role text, "joinedAt" timestamptz) LANGUAGE plpgsql AS $$
DECLARE
  v_email text;
BEGIN
  PERFORM 1 FROM authlib_organizations WHERE xata_id = p_organization FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN; END IF;
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
$$;
INSERT INTO authlib_migrations (version, name) VALUES (11, 'enterprise SSO: requireIdpMfa, allowIdpInitiated, authlib_sso_join') ON CONFLICT (version) DO NOTHING;
