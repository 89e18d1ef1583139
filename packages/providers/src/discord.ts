/**
 * Sign in with Discord (OAuth 2).
 *
 * ```ts
 * import Discord from "@authlib/providers/discord"
 * providers: [Discord()] // AUTH_DISCORD_ID / AUTH_DISCORD_SECRET
 * ```
 * @module
 */
import type { OAuth2Config } from "@authlib/core"
import type { OAuthOptions, OAuthPreset } from "./shared/types.js"
import { withOptions } from "./shared/merge.js"

/** The parts of Discord's `GET /users/@me` answer the preset reads. */
export interface DiscordProfile {
  [claim: string]: unknown
  /** A snowflake: a 64-bit integer as a decimal string. */
  id: string
  username: string
  /** `"0"` for accounts on the new username system, else the legacy four digits. */
  discriminator: string
  global_name: string | null
  avatar: string | null
  email: string | null
  verified: boolean
}

const CDN = "https://cdn.discordapp.com"

/**
 * Discord's avatar URL. A custom avatar is `avatars/<id>/<hash>` (`.gif` when the hash starts with
 * `a_`, which marks an animated one). Without one, Discord shows a default avatar whose index is
 * `(id >> 22) % 6` on the new username system and `discriminator % 5` on the legacy one.
 */
export function discordAvatarUrl(profile: Pick<DiscordProfile, "id" | "avatar" | "discriminator">): string {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png"
    return `${CDN}/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  const legacy = profile.discriminator !== "0" && /^\d{1,4}$/.test(profile.discriminator)
  const snowflake = /^\d{1,20}$/.test(profile.id) ? BigInt(profile.id) : 0n
  const index = legacy ? Number(profile.discriminator) % 5 : Number((snowflake >> 22n) % 6n)
  return `${CDN}/embed/avatars/${index}.png`
}

/**
 * Discord's profile as an authlib user. Discord's `verified` says whether the address is verified:
 * an unverified address is not passed on, a verified one is `emailVerified`.
 */
export function discordProfile(profile: DiscordProfile) {
  return {
    id: profile.id,
    name: profile.global_name ?? profile.username,
    email: profile.verified ? (profile.email ?? null) : null,
    image: discordAvatarUrl(profile),
    emailVerified: profile.verified === true && profile.email ? new Date() : null,
  }
}

/** The Discord provider preset (scope `identify email`). */
export default function Discord(options: OAuthOptions<DiscordProfile> = {}): OAuth2Config<DiscordProfile> {
  const preset: OAuthPreset<DiscordProfile> = {
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorization: { url: "https://discord.com/oauth2/authorize", params: { scope: "identify email" } },
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    checks: ["pkce", "state"],
    profile: discordProfile,
    style: { brandColor: "#5865f2" },
  }
  return withOptions(preset, options)
}
export { Discord }
