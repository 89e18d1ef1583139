/**
 * A generated-style `XataClient` for the adapter's schema, built on `@xata.io/client` (the shape that
 * `xata codegen` produces: a `tables` description, inferred record types, a class over `buildClient()`).
 * It lives in its own entry point, `@authlib/xata-adapter/xata-client`, because it imports
 * `@xata.io/client` at run time: users of PGlite or node-postgres never load it.
 *
 * The adapter only uses its `sql` call; `db.<table>` works as in any generated client.
 */
import { buildClient } from "@xata.io/client"
import type { BaseClientOptions, SchemaInference, XataRecord } from "@xata.io/client"

const userLink = { name: "user", type: "link", link: { table: "authlib_users" } } as const
const organizationLink = { name: "organization", type: "link", link: { table: "authlib_organizations" } } as const

/**
 * The tables of spec 2.7 (prefix `authlib_`) plus `authlib_authenticators`, our passkey extension,
 * and the organizations' tables of migration 9.
 */
export const tables = [
  {
    name: "authlib_accounts",
    columns: [
      { name: "access_token", type: "text" },
      { name: "expires_at", type: "int" },
      { name: "id_token", type: "text" },
      { name: "provider", type: "string" },
      { name: "providerAccountId", type: "string" },
      { name: "refresh_token", type: "text" },
      { name: "scope", type: "string" },
      { name: "session_state", type: "string" },
      { name: "token_type", type: "string" },
      { name: "type", type: "string" },
      userLink,
    ],
  },
  {
    name: "authlib_sessions",
    columns: [
      { name: "expires", type: "datetime" },
      { name: "sessionToken", type: "string" },
      userLink,
      { name: "createdAt", type: "datetime" },
      { name: "clientDescription", type: "string" },
      { name: "clientNetwork", type: "string" },
      { name: "error", type: "string" },
    ],
  },
  {
    name: "authlib_users",
    columns: [
      // Nullable (a user whose provider gave no address) and unique when present, as in schema.sql.
      { name: "email", type: "string", unique: true },
      { name: "emailVerified", type: "datetime" },
      { name: "image", type: "string" },
      { name: "name", type: "string" },
      { name: "sessionEpoch", type: "int" },
    ],
  },
  {
    name: "authlib_users_accounts",
    columns: [{ name: "account", type: "link", link: { table: "authlib_accounts" } }, userLink],
  },
  {
    name: "authlib_users_sessions",
    columns: [{ name: "session", type: "link", link: { table: "authlib_sessions" } }, userLink],
  },
  {
    name: "authlib_verificationTokens",
    columns: [
      { name: "expires", type: "datetime" },
      { name: "identifier", type: "string" },
      { name: "token", type: "string" },
    ],
  },
  {
    name: "authlib_authenticators",
    columns: [
      { name: "credentialID", type: "string" },
      userLink,
      { name: "providerAccountId", type: "string" },
      { name: "counter", type: "int" },
      { name: "credentialBackedUp", type: "bool" },
      { name: "credentialPublicKey", type: "text" },
      { name: "credentialDeviceType", type: "string" },
      { name: "transports", type: "string" },
      { name: "name", type: "string" },
      { name: "createdAt", type: "datetime" },
      { name: "lastUsedAt", type: "datetime" },
    ],
  },
  {
    name: "authlib_organizations",
    columns: [
      { name: "name", type: "string" },
      { name: "slug", type: "string", unique: true },
      { name: "createdAt", type: "datetime" },
    ],
  },
  {
    name: "authlib_organization_members",
    columns: [
      organizationLink,
      userLink,
      { name: "role", type: "string" },
      { name: "joinedAt", type: "datetime" },
    ],
  },
  {
    name: "authlib_organization_invitations",
    columns: [
      organizationLink,
      { name: "email", type: "string" },
      { name: "role", type: "string" },
      // The sender's user id, not a link: an invitation outlives its sender's removal.
      { name: "inviter", type: "string" },
      { name: "tokenHash", type: "string", unique: true },
      { name: "expires", type: "datetime" },
      { name: "status", type: "string" },
      { name: "createdAt", type: "datetime" },
    ],
  },
] as const

export type SchemaTables = typeof tables
export type InferredTypes = SchemaInference<SchemaTables>

export type AuthlibAccounts = InferredTypes["authlib_accounts"]
export type AuthlibAccountsRecord = AuthlibAccounts & XataRecord
export type AuthlibSessions = InferredTypes["authlib_sessions"]
export type AuthlibSessionsRecord = AuthlibSessions & XataRecord
export type AuthlibUsers = InferredTypes["authlib_users"]
export type AuthlibUsersRecord = AuthlibUsers & XataRecord
export type AuthlibUsersAccounts = InferredTypes["authlib_users_accounts"]
export type AuthlibUsersAccountsRecord = AuthlibUsersAccounts & XataRecord
export type AuthlibUsersSessions = InferredTypes["authlib_users_sessions"]
export type AuthlibUsersSessionsRecord = AuthlibUsersSessions & XataRecord
export type AuthlibVerificationTokens = InferredTypes["authlib_verificationTokens"]
export type AuthlibVerificationTokensRecord = AuthlibVerificationTokens & XataRecord
export type AuthlibAuthenticators = InferredTypes["authlib_authenticators"]
export type AuthlibAuthenticatorsRecord = AuthlibAuthenticators & XataRecord
export type AuthlibOrganizations = InferredTypes["authlib_organizations"]
export type AuthlibOrganizationsRecord = AuthlibOrganizations & XataRecord
export type AuthlibOrganizationMembers = InferredTypes["authlib_organization_members"]
export type AuthlibOrganizationMembersRecord = AuthlibOrganizationMembers & XataRecord
export type AuthlibOrganizationInvitations = InferredTypes["authlib_organization_invitations"]
export type AuthlibOrganizationInvitationsRecord = AuthlibOrganizationInvitations & XataRecord

export type DatabaseSchema = {
  authlib_accounts: AuthlibAccountsRecord
  authlib_sessions: AuthlibSessionsRecord
  authlib_users: AuthlibUsersRecord
  authlib_users_accounts: AuthlibUsersAccountsRecord
  authlib_users_sessions: AuthlibUsersSessionsRecord
  authlib_verificationTokens: AuthlibVerificationTokensRecord
  authlib_authenticators: AuthlibAuthenticatorsRecord
  authlib_organizations: AuthlibOrganizationsRecord
  authlib_organization_members: AuthlibOrganizationMembersRecord
  authlib_organization_invitations: AuthlibOrganizationInvitationsRecord
}

const DatabaseClient = buildClient()

/**
 * The client of a database holding the adapter's schema. Options are `@xata.io/client`'s
 * (`databaseURL`, `apiKey`, `branch`, `fetch`...; `XATA_DATABASE_URL`, `XATA_API_KEY` and
 * `XATA_BRANCH` are read when absent). `getConfig()` resolves to `{ branch, databaseURL }`.
 */
export class XataClient extends DatabaseClient<DatabaseSchema> {
  constructor(options?: BaseClientOptions) {
    super({ ...options }, tables)
  }
}
