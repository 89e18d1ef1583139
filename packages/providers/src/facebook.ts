/**
 * Sign in with Facebook (OAuth 2 with the Graph API).
 *
 * ```ts
 * import Facebook from "@authlib/providers/facebook"
 * providers: [Facebook()] // AUTH_FACEBOOK_ID / AUTH_FACEBOOK_SECRET
 * ```
 * Graph API versions expire about two years after release; `apiVersion` pins another one.
 *
 * Facebook's addresses are unverified as far as authlib knows: users it creates are never linked
 * by e-mail, and proving the address later by e-mail link removes the Facebook link.
 * @module
 */
import type { OAuth2Config } from "@authlib/core"
import type { OAuthOptions, OAuthPreset } from "./shared/types.js"
import { InvalidProviderOptions } from "./errors.js"
import { withOptions } from "./shared/merge.js"

/** The parts of Facebook's `GET /me?fields=...` answer the preset reads. */
export interface FacebookProfile {
  [claim: string]: unknown
  id: string
  name?: string
  email?: string
  picture?: { data?: { url?: string; is_silhouette?: boolean } }
}

/** Options of the Facebook preset: any provider field, plus the Graph API version. */
export interface FacebookUserConfig extends OAuthOptions<FacebookProfile> {
  /** Graph API version, `vNN.N`. Default {@link FACEBOOK_API_VERSION}. */
  apiVersion?: string
}

/** The Graph API version the preset calls by default. */
export const FACEBOOK_API_VERSION = "v23.0"
/** The profile fields asked of `/me`. */
export const FACEBOOK_FIELDS = "id,name,email,picture.width(256).height(256)"

/**
 * Facebook's profile as an authlib user. The address is never `emailVerified`: the Graph API does
 * not say whether it was confirmed, and Facebook accounts can be created with an address (or a
 * phone number) whose owner never confirmed it.
 */
export function facebookProfile(profile: FacebookProfile) {
  return { id: profile.id, name: profile.name ?? null, email: profile.email ?? null, image: profile.picture?.data?.url ?? null, emailVerified: null }
}

/** The Facebook provider preset (scope `email public_profile`). */
export default function Facebook(options: FacebookUserConfig = {}): OAuth2Config<FacebookProfile> {
  const version = options.apiVersion ?? FACEBOOK_API_VERSION
  if (!/^v\d{1,3}\.\d{1,3}$/.test(version)) {
    throw new InvalidProviderOptions(`"apiVersion" must look like "${FACEBOOK_API_VERSION}"`, { code: "INVALID_PROVIDER_OPTIONS", cause: { provider: "facebook", received: version } })
  }
  const preset: OAuthPreset<FacebookProfile> = {
    id: "facebook",
    name: "Facebook",
    type: "oauth",
    authorization: { url: `https://www.facebook.com/${version}/dialog/oauth`, params: { scope: "email public_profile" } },
    token: `https://graph.facebook.com/${version}/oauth/access_token`,
    userinfo: `https://graph.facebook.com/${version}/me?fields=${encodeURIComponent(FACEBOOK_FIELDS)}`,
    checks: ["pkce", "state"],
    profile: facebookProfile,
    style: { brandColor: "#0866ff" },
  }
  return withOptions(preset, options)
}
export { Facebook }
