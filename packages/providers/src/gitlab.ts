/**
 * Sign in with GitLab (OAuth 2; gitlab.com or a self-managed instance through `baseUrl`).
 *
 * ```ts
 * import GitLab from "@authlib/providers/gitlab"
 * providers: [GitLab({ baseUrl: "https://gitlab.example.com" })] // AUTH_GITLAB_ID / AUTH_GITLAB_SECRET
 * ```
 *
 * GitLab does not say whether the address is verified, so users it creates are unverified: an
 * account is never linked to an existing user by e-mail, and proving the address later by e-mail
 * link removes the GitLab link (see core's README, "Account linking").
 * @module
 */
import type { OAuth2Config } from "@authlib/core"
import type { OAuthOptions, OAuthPreset } from "./shared/types.js"
import { withOptions } from "./shared/merge.js"

/** The parts of GitLab's `GET /api/v4/user` answer the preset reads. */
export interface GitLabProfile {
  [claim: string]: unknown
  id: number
  username: string
  name: string
  email: string
  avatar_url: string | null
}

/** Options of the GitLab preset: any provider field, plus the instance URL. */
export interface GitLabUserConfig extends OAuthOptions<GitLabProfile> {
  /** A self-managed instance. Default `https://gitlab.com`. */
  baseUrl?: string
}

/**
 * GitLab's profile as an authlib user: the numeric id becomes a string. The address is never
 * `emailVerified`: `GET /api/v4/user` does not say whether it was confirmed (only administrators
 * see `confirmed_at`), and self-managed instances can turn e-mail confirmation off.
 */
export function gitlabProfile(profile: GitLabProfile) {
  return { id: String(profile.id), name: profile.name || profile.username, email: profile.email ?? null, image: profile.avatar_url ?? null, emailVerified: null }
}

/** The GitLab provider preset (scope `read_user`). */
export default function GitLab(options: GitLabUserConfig = {}): OAuth2Config<GitLabProfile> {
  const baseUrl = (options.baseUrl ?? "https://gitlab.com").replace(/\/+$/, "")
  const preset: OAuthPreset<GitLabProfile> = {
    id: "gitlab",
    name: "GitLab",
    type: "oauth",
    authorization: { url: `${baseUrl}/oauth/authorize`, params: { scope: "read_user" } },
    token: `${baseUrl}/oauth/token`,
    userinfo: `${baseUrl}/api/v4/user`,
    checks: ["pkce", "state"],
    profile: gitlabProfile,
    style: { brandColor: "#fc6d26" },
  }
  return withOptions(preset, options)
}
export { GitLab }
