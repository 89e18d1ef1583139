/**
 * Sign in with GitHub (OAuth 2, also GitHub Enterprise Server).
 *
 * ```ts
 * import GitHub from "@authlib/providers/github"
 * providers: [GitHub({ clientId, clientSecret })] // or leave both to AUTH_GITHUB_ID / AUTH_GITHUB_SECRET
 * ```
 * @module
 */
import type { OAuth2Config } from "@authlib/core"
import type { OAuthOptions, OAuthPreset, UserinfoContext } from "./shared/types.js"
import { InvalidProviderOptions, ProviderRequestError } from "./errors.js"
import { endpointUrl, fetchJson } from "./shared/http.js"
import { withOptions } from "./shared/merge.js"

/** The parts of GitHub's `GET /user` answer the preset reads. */
export interface GitHubProfile {
  [claim: string]: unknown
  id: number
  login: string
  name: string | null
  email: string | null
  avatar_url: string
  /** Set by the preset from `GET /user/emails`: whether GitHub lists `email` as verified. */
  email_verified?: boolean
}

/** One entry of GitHub's `GET /user/emails` answer. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

/** Options of the GitHub preset: any provider field, plus the GitHub Enterprise Server URL. */
export interface GitHubUserConfig extends OAuthOptions<GitHubProfile> {
  /** GitHub Enterprise Server: its base URL (for example `https://github.example.com`). */
  enterprise?: { baseUrl?: string }
}

const API_HEADERS = { Accept: "application/vnd.github+json", "User-Agent": "authlib", "X-GitHub-Api-Version": "2022-11-28" }

/**
 * The address to use when the profile has none (the user keeps it private): the primary one if it
 * is verified, else any verified one. An unverified address is never used: anybody can add one.
 */
export function pickGitHubEmail(emails: readonly GitHubEmail[]): string | null {
  const verified = emails.filter((e) => e.verified === true && typeof e.email === "string")
  return (verified.find((e) => e.primary) ?? verified[0])?.email ?? null
}

/**
 * The address to sign in with and whether GitHub lists it as verified. The public profile address
 * is kept when `/user/emails` lists it verified, or says nothing of it (the scope was not granted:
 * kept, unverified); one it lists unverified is replaced by `pickGitHubEmail`.
 */
export function githubEmail(publicEmail: string | null, emails: readonly GitHubEmail[]): { email: string | null; email_verified: boolean } {
  if (publicEmail) {
    const entry = emails.find((e) => typeof e.email === "string" && e.email.toLowerCase() === publicEmail.toLowerCase())
    if (!entry) return { email: publicEmail, email_verified: false }
    if (entry.verified === true) return { email: publicEmail, email_verified: true }
  }
  const picked = pickGitHubEmail(emails)
  return { email: picked, email_verified: picked !== null }
}

/**
 * `GET /user`, then `GET /user/emails`: for a private address (the profile's is null) it names the
 * address, for a public one it says whether GitHub verified it. The second URL is derived from the
 * configured userinfo URL, so Enterprise and test servers need no more.
 */
async function requestGitHubProfile({ tokens, provider }: UserinfoContext): Promise<GitHubProfile> {
  const url = endpointUrl(provider.userinfo)
  if (!url) throw new InvalidProviderOptions(`GitHub: "userinfo" has no url`, { code: "INVALID_PROVIDER_OPTIONS", cause: { provider: "github" } })
  const profile = (await fetchJson("github", url, tokens.access_token, API_HEADERS)) as GitHubProfile | null
  if (typeof profile?.id !== "number" && typeof profile?.id !== "string") {
    throw new ProviderRequestError(`github: ${url} did not answer a user object`, { code: "INVALID_PROFILE", cause: { provider: "github", url } })
  }
  const emails = await fetchEmails(`${url.replace(/\/+$/, "")}/emails`, tokens.access_token)
  return { ...profile, ...githubEmail(profile.email, emails) }
}

/** The user's addresses; none when GitHub refuses (the `user:email` scope was not granted). */
async function fetchEmails(url: string, accessToken: string | undefined): Promise<GitHubEmail[]> {
  try {
    const emails = await fetchJson("github", url, accessToken, API_HEADERS)
    return Array.isArray(emails) ? (emails as GitHubEmail[]) : []
  } catch (err) {
    if (err instanceof ProviderRequestError && err.code === "HTTP_ERROR") return []
    throw err
  }
}

/**
 * GitHub's profile as an authlib user: the numeric id becomes a string; the address is
 * `emailVerified` when `/user/emails` listed it verified (`email_verified`, set by the preset's
 * userinfo request).
 */
export function githubProfile(profile: GitHubProfile) {
  const email = profile.email ?? null
  return { id: String(profile.id), name: profile.name ?? profile.login, email, image: profile.avatar_url ?? null, emailVerified: email && profile.email_verified === true ? new Date() : null }
}

/** The GitHub provider preset. Scope `read:user user:email` so private addresses can be looked up. */
export default function GitHub(options: GitHubUserConfig = {}): OAuth2Config<GitHubProfile> {
  const baseUrl = (options.enterprise?.baseUrl ?? "https://github.com").replace(/\/+$/, "")
  const apiUrl = options.enterprise?.baseUrl ? `${baseUrl}/api/v3` : "https://api.github.com"
  const preset: OAuthPreset<GitHubProfile> = {
    id: "github",
    name: "GitHub",
    type: "oauth",
    // GitHub sends RFC 9207 `iss` with this value in its authorization responses.
    issuer: `${baseUrl}/login/oauth`,
    authorization: { url: `${baseUrl}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
    token: `${baseUrl}/login/oauth/access_token`,
    userinfo: { url: `${apiUrl}/user`, request: requestGitHubProfile },
    checks: ["pkce", "state"],
    profile: githubProfile,
    style: { brandColor: "#24292f" },
  }
  return withOptions(preset, options)
}
export { GitHub }
