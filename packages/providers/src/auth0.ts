/**
 * Sign in with Auth0 (OpenID Connect). The issuer is your tenant's domain.
 *
 * ```ts
 * import Auth0 from "@authlib/providers/auth0"
 * providers: [Auth0({ issuer: "https://<tenant>.<region>.auth0.com/" })]
 * // or AUTH_AUTH0_ISSUER, AUTH_AUTH0_ID, AUTH_AUTH0_SECRET
 * ```
 * Auth0's issuer ends with a slash; give it exactly as `/.well-known/openid-configuration` lists it.
 * @module
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions } from "./shared/types.js"
import { claimsUser, oidcPreset } from "./shared/oidc-preset.js"

/** Claims of an Auth0 ID token the preset reads. */
export interface Auth0Profile {
  [claim: string]: unknown
  sub: string
  nickname?: string
  name?: string
  email?: string
  email_verified?: boolean
  picture?: string
}

/**
 * Auth0's claims as an authlib user. An address Auth0 marks unverified is not passed on; the address
 * is verified (`emailVerified`) only when Auth0 says `email_verified: true`.
 */
export function auth0Profile(profile: Auth0Profile) {
  return claimsUser(profile, profile.name ?? profile.nickname ?? null)
}

/** The Auth0 provider preset; `issuer` comes from the options or `AUTH_AUTH0_ISSUER`. */
export default function Auth0(options: OIDCOptions<Auth0Profile> = {}): OIDCConfig<Auth0Profile> {
  return oidcPreset({ id: "auth0", name: "Auth0", profile: auth0Profile, style: { brandColor: "#eb5424" } }, options)
}
export { Auth0 }
