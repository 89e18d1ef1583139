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
import type { OIDCOptions } from "./shared/types.js"
import { claimsUser, oidcPreset } from "./shared/oidc-preset.js"

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
  return claimsUser(profile, profile.name ?? profile.preferred_username ?? null)
}

/** The Keycloak provider preset; `issuer` comes from the options or `AUTH_KEYCLOAK_ISSUER`. */
export default function Keycloak(options: OIDCOptions<KeycloakProfile> = {}): OIDCConfig<KeycloakProfile> {
  return oidcPreset({ id: "keycloak", name: "Keycloak", profile: keycloakProfile, style: { brandColor: "#428bca" } }, options)
}
export { Keycloak }
