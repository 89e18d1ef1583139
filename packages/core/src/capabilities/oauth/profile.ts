/**
 * From the provider's profile and token set to the `User`, `Account` and `Profile` a sign-in
 * produces: the provider's `profile` and `account` callbacks, or their defaults.
 */
import { runUserCode } from "../../kernel/user-code/run.js"
import { OAuthProfileParseError } from "../../kernel/errors/errors.js"
import type { OAuthConfig, TokenSet } from "../../kernel/types/providers.js"
import type { Account, Profile, User } from "../../kernel/types/config.js"

/** The keys of the token set the default `account` callback keeps. */
const ACCOUNT_KEYS = ["access_token", "id_token", "refresh_token", "expires_at", "scope", "token_type", "session_state"] as const

/** The token set as the callbacks see it: `token_type` lower-cased, `expires_at` from `expires_in`. */
export function normalizeTokens(tokens: Record<string, unknown>, now = Date.now()): TokenSet {
  const out: TokenSet = { ...tokens }
  if (typeof out.token_type === "string") out.token_type = out.token_type.toLowerCase()
  const expiresIn = typeof out.expires_in === "string" ? Number(out.expires_in) : out.expires_in
  if (out.expires_at === undefined && typeof expiresIn === "number" && Number.isFinite(expiresIn)) {
    out.expires_at = Math.floor(now / 1000) + Math.floor(expiresIn)
  }
  return out
}

/** The default `account` callback: keeps the token fields an adapter stores (spec 2.5). */
export function defaultAccount(tokens: TokenSet): Record<string, unknown> {
  const account: Record<string, unknown> = {}
  for (const key of ACCOUNT_KEYS) if (tokens[key] !== undefined) account[key] = tokens[key]
  return account
}

/**
 * The default `profile` callback: keeps id, name, email and image (spec 2.5), and `emailVerified`
 * only when the provider says so (`email_verified: true`, the boolean): an absent or false claim
 * leaves the address unverified.
 */
export function defaultProfile(profile: Profile): User {
  const id = profile.sub ?? (profile.id === undefined || profile.id === null ? undefined : String(profile.id))
  const email = profile.email ?? null
  return {
    id: id ?? undefined,
    name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
    email,
    image: typeof profile.picture === "string" ? profile.picture : null,
    emailVerified: email !== null && profile.email_verified === true ? new Date() : null,
  }
}

/**
 * Whether the provider vouched for the user's address. A `profile` callback that returns
 * `emailVerified` decides (a valid `Date` is verified, anything else is not); one that leaves it out
 * (Auth.js-style callbacks) counts as verified only when the raw profile says `email_verified: true`
 * for the same address. No address, no verification.
 */
export function verifiedAt(user: User, profile: Profile, email: string | null | undefined): Date | null {
  if (typeof email !== "string" || email === "") return null
  if ("emailVerified" in user) {
    const at = user.emailVerified
    return at instanceof Date && !Number.isNaN(at.getTime()) ? at : null
  }
  const claimed = typeof profile.email === "string" ? profile.email.toLowerCase() : undefined
  return profile.email_verified === true && claimed === email ? new Date() : null
}

/**
 * Apple sends the user's name only once, as a JSON `user` field next to the code in its form_post
 * response, and nowhere in its tokens. It is passed on as `profile.user` for the `profile` callback.
 */
export function withResponseUser(profile: Profile, params: URLSearchParams): Profile {
  const raw = params.get("user")
  if (raw === null || profile.user !== undefined) return profile
  try {
    const user: unknown = JSON.parse(raw)
    return user !== null && typeof user === "object" && !Array.isArray(user) ? { ...profile, user } : profile
  } catch {
    return profile
  }
}

/** What the flow hands to core's session issuance. */
export interface OAuthSignInData {
  user: User
  account: Account
  profile: Profile
}

async function userOf(provider: OAuthConfig, profile: Profile, tokens: TokenSet): Promise<User & { id: string }> {
  const { profile: mapProfile } = provider
  const user = mapProfile ? await runUserCode("provider", `${provider.id}.profile`, () => mapProfile(profile, tokens)) : defaultProfile(profile)
  if (user?.id === undefined || user.id === null || String(user.id) === "") {
    throw new OAuthProfileParseError(`The profile of provider "${provider.id}" has no "id"`, {
      code: "PROFILE_ID_MISSING",
      cause: { provider: provider.id, keys: Object.keys(profile) },
    })
  }
  const email = typeof user.email === "string" ? user.email.toLowerCase() : user.email
  return { ...user, id: String(user.id), ...(email === undefined ? {} : { email }), emailVerified: verifiedAt(user, profile, email) }
}

/**
 * Runs the provider's callbacks. `providerAccountId` is the user id the `profile` callback
 * returned, as a string; e-mail addresses are lower-cased so account linking compares like with
 * like; `emailVerified` is always set (`verifiedAt`).
 */
export async function buildSignIn(provider: OAuthConfig, profile: Profile, rawTokens: Record<string, unknown>): Promise<OAuthSignInData> {
  const tokens = normalizeTokens(rawTokens)
  const user = await userOf(provider, profile, tokens)
  const { account: pickAccount } = provider
  const kept = (pickAccount ? await runUserCode("provider", `${provider.id}.account`, () => pickAccount(tokens)) : undefined) ?? defaultAccount(tokens)
  const account = {
    ...kept,
    provider: provider.id,
    type: provider.type,
    providerAccountId: user.id,
  } as Account
  return { user, account, profile }
}
