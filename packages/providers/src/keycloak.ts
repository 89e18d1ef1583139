/**
 * Sign in with Keycloak (OpenID Connect). The issuer is a realm URL.
 *
 * ```ts
 * import Keycloak from "@authlib/providers/keycloak"
 * providers: [Keycloak({ issuer: "https://keycloak.example.com/realms/<realm>" })]
 * // or AUTH_KEYCLOAK_ISSUER, AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET
 * ```
 * @module
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions, OIDCPreset } from "./shared/types.js"
import { withOptions } from "./shared/merge.js"
import { emailVerifiedAt, verifiedEmail } from "./shared/verified-email.js"

/** Claims of a Keycloak ID token the preset reads. */
export interface KeycloakProfile {
  [claim: string]: unknown
  sub: string
  name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
}

/**
 * Keycloak's claims as an authlib user. An address Keycloak marks unverified is not passed on; the address
 * is verified (`emailVerified`) only when Keycloak says `email_verified: true`.
 */
export function keycloakProfile(profile: KeycloakProfile) {
  return {
    id: profile.sub,
    name: profile.name ?? profile.preferred_username ?? null,
    email: verifiedEmail(profile),
    image: profile.picture ?? null,
    emailVerified: emailVerifiedAt(profile),
  }
}

/** The Keycloak provider preset; `issuer` comes from the options or `AUTH_KEYCLOAK_ISSUER`. */
export default function Keycloak(options: OIDCOptions<KeycloakProfile> = {}): OIDCConfig<KeycloakProfile> {
  const preset: OIDCPreset<KeycloakProfile> = {
    id: "keycloak",
    name: "Keycloak",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "state", "nonce"],
    profile: keycloakProfile,
    style: { brandColor: "#428bca" },
  }
  return withOptions(preset, options)
}
export { Keycloak }
