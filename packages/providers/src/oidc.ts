/**
 * Any OpenID Connect provider, found through its issuer's discovery document.
 *
 * ```ts
 * import OIDC from "@authlib/providers/oidc"
 * providers: [OIDC({ id: "corp", name: "Corp SSO", issuer: "https://sso.example.com" })]
 * // clientId / clientSecret / issuer from AUTH_CORP_ID, AUTH_CORP_SECRET, AUTH_CORP_ISSUER when not given
 * ```
 * @module
 */
import type { OIDCConfig, Profile } from "@authlib/core"
import type { OIDCOptions } from "./shared/types.js"
import { oidcPreset } from "./shared/oidc-preset.js"
import { emailVerifiedAt, verifiedEmail } from "./shared/verified-email.js"

/** Options of the generic preset: any OIDC provider field; `id` and `name` name it. */
export interface OIDCPresetConfig<P extends Profile = Profile> extends OIDCOptions<P> {
  /** Part of the provider's URLs and of its env variable names (`AUTH_<ID>_ID`). Default `"oidc"`. */
  id?: string
  /** Label of the sign-in button. Default `"OpenID Connect"`. */
  name?: string
}

/**
 * Standard claims as an authlib user. An address the provider marks unverified is not passed on;
 * the address is verified (`emailVerified`) only when the provider says `email_verified: true`.
 */
export function oidcProfile(profile: Profile) {
  return {
    id: typeof profile.sub === "string" ? profile.sub : undefined,
    name: profile.name ?? profile.preferred_username ?? null,
    email: verifiedEmail(profile),
    image: typeof profile.picture === "string" ? profile.picture : null,
    emailVerified: emailVerifiedAt(profile),
  }
}

/** A generic OpenID Connect provider preset: discovery, code flow with PKCE, state and nonce. */
export default function OIDC<P extends Profile = Profile>(options: OIDCPresetConfig<P> = {}): OIDCConfig<P> {
  return oidcPreset({ id: "oidc", name: "OpenID Connect", profile: oidcProfile }, options)
}
export { OIDC }
