/**
 * Sign in with Google (OpenID Connect, discovery from `https://accounts.google.com`).
 *
 * ```ts
 * import Google from "@authlib/providers/google"
 * providers: [Google({ clientId, clientSecret })] // or AUTH_GOOGLE_ID / AUTH_GOOGLE_SECRET
 * ```
 * @module
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions } from "./shared/types.js"
import { oidcPreset } from "./shared/oidc-preset.js"
import { emailVerifiedAt, verifiedEmail } from "./shared/verified-email.js"

/** Claims of a Google ID token the preset reads. */
export interface GoogleProfile {
  [claim: string]: unknown
  sub: string
  email: string
  email_verified: boolean
  name: string
  picture: string
  hd?: string
}

/**
 * Google's claims as an authlib user. An address Google has not verified (possible for accounts
 * created with a non-Gmail address) is not passed on: it does not prove who the user is. One it
 * has verified (`email_verified: true`) is `emailVerified`.
 */
export function googleProfile(profile: GoogleProfile) {
  return {
    id: profile.sub,
    name: profile.name ?? null,
    email: verifiedEmail(profile),
    image: profile.picture ?? null,
    emailVerified: emailVerifiedAt(profile),
  }
}

/** The Google provider preset. */
export default function Google(options: OIDCOptions<GoogleProfile> = {}): OIDCConfig<GoogleProfile> {
  return oidcPreset(
    {
      id: "google",
      name: "Google",
      issuer: "https://accounts.google.com",
      wellKnown: "https://accounts.google.com/.well-known/openid-configuration",
      authorization: { params: { scope: "openid email profile" } },
      profile: googleProfile,
      style: { brandColor: "#1a73e8" },
    },
    options,
  )
}
export { Google }
