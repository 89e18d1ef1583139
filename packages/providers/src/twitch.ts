/**
 * Sign in with Twitch (OpenID Connect).
 *
 * ```ts
 * import Twitch from "@authlib/providers/twitch"
 * providers: [Twitch()] // AUTH_TWITCH_ID / AUTH_TWITCH_SECRET
 * ```
 * Twitch puts e-mail and picture in the ID token only when the `claims` authorization parameter
 * asks for them, so the preset asks. Its token endpoint returns `scope` as a JSON array, which
 * RFC 6749 forbids; the preset's `token.conform` turns it into the space-separated string.
 * @module
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions } from "./shared/types.js"
import { claimsUser, oidcPreset } from "./shared/oidc-preset.js"

/** Claims of a Twitch ID token the preset reads. */
export interface TwitchProfile {
  [claim: string]: unknown
  sub: string
  preferred_username: string
  email?: string
  email_verified?: boolean
  picture?: string
}

/** The `claims` parameter: the claims Twitch adds to the ID token on request. */
export const TWITCH_CLAIMS = JSON.stringify({ id_token: { email: null, email_verified: null, picture: null, preferred_username: null } })

/** Rewrites a Twitch token response whose `scope` is an array into the standard string form. */
export async function conformTwitchToken(response: Response): Promise<Response | undefined> {
  if (!response.ok) return undefined
  const body = (await response.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined
  if (!body || !Array.isArray(body.scope)) return undefined
  const headers = new Headers(response.headers)
  headers.delete("content-length")
  return new Response(JSON.stringify({ ...body, scope: body.scope.join(" ") }), { status: response.status, headers })
}

/**
 * Twitch's claims as an authlib user. An address Twitch marks unverified is not passed on; the address
 * is verified (`emailVerified`) only when Twitch says `email_verified: true`.
 */
export function twitchProfile(profile: TwitchProfile) {
  return claimsUser(profile, profile.preferred_username ?? null)
}

/** The Twitch provider preset. */
export default function Twitch(options: OIDCOptions<TwitchProfile> = {}): OIDCConfig<TwitchProfile> {
  return oidcPreset(
    {
      id: "twitch",
      name: "Twitch",
      issuer: "https://id.twitch.tv/oauth2",
      wellKnown: "https://id.twitch.tv/oauth2/.well-known/openid-configuration",
      authorization: { params: { scope: "openid user:read:email", claims: TWITCH_CLAIMS } },
      token: { conform: conformTwitchToken },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile: twitchProfile,
      style: { brandColor: "#9146ff" },
    },
    options,
  )
}
export { Twitch }
