/**
 * Sign in with LinkedIn (OpenID Connect, "Sign In with LinkedIn using OpenID Connect").
 *
 * ```ts
 * import LinkedIn from "@authlib/providers/linkedin"
 * providers: [LinkedIn()] // AUTH_LINKEDIN_ID / AUTH_LINKEDIN_SECRET
 * ```
 * The preset follows LinkedIn's documented web flow: `state` (its PKCE flow is a separate one for
 * native clients) and the client secret in the token request body (`client_secret_post`).
 * @module
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions } from "./shared/types.js"
import { claimsUser, oidcPreset } from "./shared/oidc-preset.js"

/** Claims of a LinkedIn ID token / userinfo answer the preset reads. */
export interface LinkedInProfile {
  [claim: string]: unknown
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  locale?: string
}

/**
 * LinkedIn's claims as an authlib user. An address LinkedIn marks unverified is not passed on; the address
 * is verified (`emailVerified`) only when LinkedIn says `email_verified: true`.
 */
export function linkedinProfile(profile: LinkedInProfile) {
  const name = profile.name ?? ([profile.given_name, profile.family_name].filter(Boolean).join(" ") || null)
  return claimsUser(profile, name)
}

/** The LinkedIn provider preset. */
export default function LinkedIn(options: OIDCOptions<LinkedInProfile> = {}): OIDCConfig<LinkedInProfile> {
  return oidcPreset(
    {
      id: "linkedin",
      name: "LinkedIn",
      issuer: "https://www.linkedin.com/oauth",
      wellKnown: "https://www.linkedin.com/oauth/.well-known/openid-configuration",
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["state"],
      profile: linkedinProfile,
      style: { brandColor: "#0a66c2" },
    },
    options,
  )
}
export { LinkedIn }
