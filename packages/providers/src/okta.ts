/**
 * Sign in with Okta (OpenID Connect). The issuer is your Okta org or a custom authorization server.
 *
 * ```ts
 * import Okta from "@authlib/providers/okta"
 * providers: [Okta({ issuer: "https://<org>.okta.com/oauth2/default" })]
 * // or AUTH_OKTA_ISSUER, AUTH_OKTA_ID, AUTH_OKTA_SECRET
 * ```
 * @module
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions } from "./shared/types.js"
import { claimsUser, oidcPreset } from "./shared/oidc-preset.js"

/** Claims of an Okta ID token the preset reads. */
export interface OktaProfile {
  [claim: string]: unknown
  sub: string
  name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
}

/**
 * Okta's claims as an authlib user. An address Okta marks unverified is not passed on; the address
 * is verified (`emailVerified`) only when Okta says `email_verified: true`.
 */
export function oktaProfile(profile: OktaProfile) {
  return claimsUser(profile, profile.name ?? profile.preferred_username ?? null)
}

/** The Okta provider preset; `issuer` comes from the options or `AUTH_OKTA_ISSUER`. */
export default function Okta(options: OIDCOptions<OktaProfile> = {}): OIDCConfig<OktaProfile> {
  return oidcPreset({ id: "okta", name: "Okta", profile: oktaProfile, style: { brandColor: "#00297a" } }, options)
}
export { Okta }
