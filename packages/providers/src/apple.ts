/**
 * Sign in with Apple (OpenID Connect).
 *
 * ```ts
 * import Apple from "@authlib/providers/apple"
 * providers: [Apple({ clientId: "<services id>", clientSecret: "<ES256 JWT you generate>" })]
 * ```
 *
 * - Apple asks for `name email`, so it answers with `response_mode=form_post`: the callback is a
 *   cross-site POST. Core accepts it on POST /callback/apple (its CSRF check does not apply to
 *   that route; `state` and `nonce` protect it instead, hence `checks: ["nonce", "state"]`).
 * - `clientSecret` is not a fixed string: it is a JWT signed (ES256) with your Sign in with Apple
 *   private key, with `iss` = team id, `sub` = services id, `aud` = `https://appleid.apple.com`, and
 *   at most 6 months of validity. Generate it yourself and rotate it before it expires.
 * - Apple has no userinfo endpoint: user data comes from the ID token. The user's name is sent
 *   only once, on the first sign-in, as a `user` JSON field of the form post; the `profile`
 *   callback reads it from `profile.user` when core passes it on.
 * @module
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions } from "./shared/types.js"
import { oidcPreset } from "./shared/oidc-preset.js"

/** Claims of an Apple ID token, plus the first-sign-in `user` form field. */
export interface AppleProfile {
  [claim: string]: unknown
  sub: string
  email?: string
  /** Apple sends `"true"`/`"false"` strings as well as booleans. */
  email_verified?: boolean | "true" | "false"
  is_private_email?: boolean | "true" | "false"
  /** Parsed from the unsigned `user` form field of the first sign-in (passed on by core). */
  user?: { name?: { firstName?: unknown; lastName?: unknown }; email?: unknown }
}

/**
 * Apple's claims as an authlib user: the name when Apple sent it, else the address; no image. Apple
 * passes on only addresses it has verified (`email_verified`, `true` or `"true"`), relay addresses
 * included: such an address is `emailVerified`; an unverified one is not passed on.
 */
export function appleProfile(profile: AppleProfile) {
  // `user` is the unsigned form field: only its name parts are read, and only as strings.
  const part = (value: unknown) => (typeof value === "string" ? value.trim().slice(0, 100) : "")
  const fullName = `${part(profile.user?.name?.firstName)} ${part(profile.user?.name?.lastName)}`.trim()
  const verified = profile.email_verified === true || profile.email_verified === "true"
  const email = verified ? (profile.email ?? null) : null
  return { id: profile.sub, name: fullName || email, email, image: null, emailVerified: email ? new Date() : null }
}

/** The Apple provider preset. */
export default function Apple(options: OIDCOptions<AppleProfile> = {}): OIDCConfig<AppleProfile> {
  return oidcPreset(
    {
      id: "apple",
      name: "Apple",
      issuer: "https://appleid.apple.com",
      wellKnown: "https://appleid.apple.com/.well-known/openid-configuration",
      authorization: { params: { scope: "name email", response_mode: "form_post" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["nonce", "state"],
      profile: appleProfile,
      style: { brandColor: "#000000" },
    },
    options,
  )
}
export { Apple }
