/**
 * Sign in with Slack (OpenID Connect, "Sign in with Slack").
 *
 * ```ts
 * import Slack from "@authlib/providers/slack"
 * providers: [Slack()] // AUTH_SLACK_ID / AUTH_SLACK_SECRET
 * ```
 * The preset follows Slack's documented OpenID flow: `state` and `nonce` protect the callback.
 * @module
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions } from "./shared/types.js"
import { claimsUser, oidcPreset } from "./shared/oidc-preset.js"

/** Claims of a Slack ID token the preset reads. */
export interface SlackProfile {
  [claim: string]: unknown
  sub: string
  name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  "https://slack.com/team_id"?: string
}

/**
 * Slack's claims as an authlib user. An address Slack marks unverified is not passed on; the address
 * is verified (`emailVerified`) only when Slack says `email_verified: true`.
 */
export function slackProfile(profile: SlackProfile) {
  return claimsUser(profile, profile.name ?? null)
}

/** The Slack provider preset. */
export default function Slack(options: OIDCOptions<SlackProfile> = {}): OIDCConfig<SlackProfile> {
  return oidcPreset(
    {
      id: "slack",
      name: "Slack",
      issuer: "https://slack.com",
      wellKnown: "https://slack.com/.well-known/openid-configuration",
      checks: ["state", "nonce"],
      profile: slackProfile,
      style: { brandColor: "#611f69" },
    },
    options,
  )
}
export { Slack }
