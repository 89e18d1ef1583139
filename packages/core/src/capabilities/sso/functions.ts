/**
 * Server functions of enterprise SSO, for server code that holds the incoming request (an admin
 * page's action): the caller is the user whose session the request's cookies carry, and must hold
 * `organization:update` in the connection's organization (owners and admins by default), with a
 * fresh authentication for every change. No answer holds a secret.
 *
 * Errors are thrown as `AuthError`s: `SessionRequired`, `SsoError` with a stable `code`
 * (`CONNECTION_UNKNOWN` also for a connection of an organization the caller is not in),
 * `OrganizationError` (`ORGANIZATION_UNKNOWN`, `FORBIDDEN`), `ReauthenticationRequired`,
 * `UnknownAction` (`sso` is not configured).
 */
import { serverFunction } from "../../kernel/run/server-function.js"
import { addDomain, createConnection, deleteConnection, listConnections, updateConnection, verifyDomain, type SsoConnection, type SsoConnectionInput, type SsoConnectionUpdate, type SsoDomain } from "./manage.js"

/** Creates a connection for the organization: SAML (IdP metadata, or entry point, certificate and entity ID; an SP key pair of its own) or OIDC. */
export const createSsoConnection = serverFunction("sso", (req, ctx, organizationId: string, input: SsoConnectionInput): Promise<SsoConnection> => createConnection(req, ctx, organizationId, input))

/** The organization's connections. */
export const listSsoConnections = serverFunction("sso", (req, ctx, organizationId: string): Promise<SsoConnection[]> => listConnections(req, ctx, organizationId))

/** Changes a connection's default role, IdP metadata or certificates (a rotation), or client secret. */
export const updateSsoConnection = serverFunction("sso", (req, ctx, connectionId: string, update: SsoConnectionUpdate): Promise<SsoConnection> => updateConnection(req, ctx, connectionId, update))

/** Deletes a connection and its domains. */
export const deleteSsoConnection = serverFunction("sso", (req, ctx, connectionId: string): Promise<void> => deleteConnection(req, ctx, connectionId))

/** Adds a domain to a connection; resolves the TXT record to publish (`{ id, domain, verified, record }`). */
export const addSsoDomain = serverFunction("sso", (req, ctx, connectionId: string, domain: string): Promise<SsoDomain> => addDomain(req, ctx, connectionId, domain))

/** Checks the domain's TXT record and marks it verified when it holds the value (`{ domain, verified }`). */
export const verifySsoDomain = serverFunction("sso", (req, ctx, connectionId: string, domain: string): Promise<{ domain: string; verified: boolean }> => verifyDomain(req, ctx, connectionId, domain))
