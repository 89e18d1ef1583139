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
