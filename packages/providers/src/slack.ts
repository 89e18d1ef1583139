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
import type { OIDCOptions, OIDCPreset } from "./shared/types.js"
import { withOptions } from "./shared/merge.js"
import { emailVerifiedAt, verifiedEmail } from "./shared/verified-email.js"

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
  return {
    id: profile.sub,
    name: profile.name ?? null,
    email: verifiedEmail(profile),
    image: profile.picture ?? null,
    emailVerified: emailVerifiedAt(profile),
  }
}

/** The Slack provider preset. */
export default function Slack(options: OIDCOptions<SlackProfile> = {}): OIDCConfig<SlackProfile> {
  const preset: OIDCPreset<SlackProfile> = {
    id: "slack",
    name: "Slack",
    type: "oidc",
    issuer: "https://slack.com",
    wellKnown: "https://slack.com/.well-known/openid-configuration",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["state", "nonce"],
    profile: slackProfile,
    style: { brandColor: "#611f69" },
  }
  return withOptions(preset, options)
}
export { Slack }
