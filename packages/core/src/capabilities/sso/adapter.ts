/**
 * The adapter port of enterprise SSO: connections of an organization to its identity provider
 * (SAML or OIDC) and the e-mail domains each connection may sign in. The record types, the methods
 * (added to `Adapter` by declaration merging) and the port's method list, which the capability
 * declares (`Capability.ports`).
 *
 * Secrets reach the adapter already sealed by core (`spPrivateKeySealed`, `clientSecretSealed`):
 * store them as given. Domains are lowercase, compared exactly.
 *
 * Race rules (the conformance suite in `@authlib/adapter-test` checks them):
 * - A domain is verified for one connection (so one organization) at a time: `verifySsoDomain`
 *   marks it verified only while no other connection has the same domain verified, in one
 *   conditional write (a unique index over verified domains in SQL); of two connections verifying
 *   one domain at once, exactly one succeeds. So a verified domain names one connection.
 * - `deleteSsoConnection` removes its domains with it; `deleteOrganization` removes the
 *   organization's connections and their domains.
 * - `addOrganizationMember` keeps an existing membership as it is (its role unchanged) and answers it.
 *   With `membershipLimit` it adds a member only while members plus pending, unexpired invitations
 *   (one to the user's own address not counted: it was their seat) stay within the limit, in one
 *   conditional write: of concurrent joins for the last seat exactly one is added.
 * - `claimVerificationToken`: of concurrent calls for one identifier and token exactly one receives
 *   `true` (a unique key over identifier and token in SQL, `INSERT ... ON CONFLICT`).
 */
import type { Awaitable } from "@authlib/jwt"
import type { AdapterOrganizationMember } from "../organizations/index.js"
import type { VerificationToken } from "../../kernel/types/adapters.js"

/** An SSO connection as stored (authlib only). */
export interface AdapterSsoConnection {
  id: string
  organizationId: string
  type: "saml" | "oidc"
  /** The role a user signing in through the connection gets when they join the organization. */
  defaultRole: string
  /** SAML: the IdP's entity ID, single sign-on URL (HTTP-Redirect) and signing certificates (PEM). */
  idpEntityId: string | null
  idpSsoUrl: string | null
  idpCertificates: string[]
  /** SAML: the connection's own SP certificate (PEM, public) and its private key, sealed by core. */
  spCertificate: string | null
  spPrivateKeySealed: string | null
  /** OIDC: the issuer, the client id and the client secret, sealed by core. */
  issuer: string | null
  clientId: string | null
  clientSecretSealed: string | null
  /**
   * Whether a sign-in must carry the IdP's multi-factor claim (SAML `AuthnContextClassRef`, OIDC
   * `amr`/`acr`); such a claim then stands for both factors. Stored `false` unless set.
   */
  requireIdpMfa: boolean
  /** SAML: whether an unsolicited Response (IdP-initiated sign-in) is accepted. Stored `false` unless set. */
  allowIdpInitiated: boolean
  createdAt: Date
}

/** A domain of a connection, with its verification state. */
export interface AdapterSsoDomain {
  id: string
  connectionId: string
  organizationId: string
  /** Lowercase host name (`acme.com`). */
  domain: string
  /** The value the organization publishes in a TXT record to prove it holds the domain. */
  verificationToken: string
  verifiedAt: Date | null
}

/** The `ssoConnections` port: the methods an adapter implements together for enterprise SSO. */
export const SSO_CONNECTIONS_PORT = [
  "createSsoConnection", "getSsoConnection", "listSsoConnections", "updateSsoConnection", "deleteSsoConnection",
  "addSsoDomain", "listSsoDomains", "verifySsoDomain", "getVerifiedSsoDomain", "addOrganizationMember", "claimVerificationToken",
] as const

/** What `updateSsoConnection` may change. */
export type SsoConnectionPatch = Partial<Pick<AdapterSsoConnection, "defaultRole" | "idpEntityId" | "idpSsoUrl" | "idpCertificates" | "issuer" | "clientId" | "clientSecretSealed" | "requireIdpMfa" | "allowIdpInitiated">>

declare module "../../kernel/types/adapters.js" {
  interface Adapter {
    /** SSO port: stores the connection (its id given by core) and answers it. */
    createSsoConnection?(connection: Omit<AdapterSsoConnection, "createdAt">): Awaitable<AdapterSsoConnection>
    /** SSO port: the connection, `null` when unknown. */
    getSsoConnection?(id: string): Awaitable<AdapterSsoConnection | null>
    /** SSO port: the organization's connections, oldest first. */
    listSsoConnections?(organizationId: string): Awaitable<AdapterSsoConnection[]>
    /** SSO port: changes the connection; `null` when unknown. */
    updateSsoConnection?(id: string, patch: SsoConnectionPatch): Awaitable<AdapterSsoConnection | null>
    /** SSO port: deletes the connection and its domains. Answers whether there was one. */
    deleteSsoConnection?(id: string): Awaitable<boolean>
    /**
     * SSO port: adds an unverified domain to the connection and answers it; when the connection has
     * the domain already, answers the stored record unchanged.
     */
    addSsoDomain?(domain: Omit<AdapterSsoDomain, "verifiedAt">): Awaitable<AdapterSsoDomain>
    /** SSO port: the connection's domains, oldest first. */
    listSsoDomains?(connectionId: string): Awaitable<AdapterSsoDomain[]>
    /**
     * SSO port: marks the connection's domain verified at `now`, in one conditional write, only
     * while no other connection has it verified (`"verified-elsewhere"`, nothing written). `null` when the connection has no such domain. An already verified domain is answered as it is.
     */
    verifySsoDomain?(connectionId: string, domain: string, now: Date): Awaitable<AdapterSsoDomain | "verified-elsewhere" | null>
    /** SSO port: the verified record of `domain` (at most one connection has it verified), `null` when none. */
    getVerifiedSsoDomain?(domain: string): Awaitable<AdapterSsoDomain | null>
    /**
     * SSO port (organizations' store): makes `userId` a member of the organization with `role`
     * (joined now) unless they are one already, whose membership is answered unchanged. `null`
     * for an unknown organization or user. With `limit.membershipLimit`, in one conditional write:
     * `"limit-reached"` (nothing written) when members plus pending invitations whose `expires` is
     * after `limit.now` would pass it; a pending invitation to the user's own address (compared
     * case-insensitively) is not counted, and an existing member is answered whatever the count.
     */
    addOrganizationMember?(
      organizationId: string, userId: string, role: string, limit?: { now: Date; membershipLimit?: number },
    ): Awaitable<AdapterOrganizationMember | "limit-reached" | null>
    /**
     * SSO port (the verification-token store): stores `token` unless a record with the same
     * identifier and token is there whose `expires` has not passed (an expired one is replaced), in
     * one conditional write. `true` when this call stored it; of concurrent calls for one identifier
     * and token exactly one receives `true`. Core records each accepted IdP-initiated assertion with it.
     */
    claimVerificationToken?(token: VerificationToken): Awaitable<boolean>
  }
  interface CapabilityPorts {
    /** Enterprise SSO: connections per organization (sealed secrets) and their verified domains. */
    ssoConnections: typeof SSO_CONNECTIONS_PORT
  }
}
