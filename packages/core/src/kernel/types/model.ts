/**
 * The data model shared by every layer: users, accounts, profiles, sessions and provider kinds
 * (spec 2). A leaf module: it imports nothing of core, so config, adapter and provider types can
 * all build on it without import cycles. Re-exported from the package root by `types.ts` and
 * `providers.ts`.
 */

export type OAuthProviderType = "oauth" | "oidc"
export type WebAuthnProviderType = "webauthn"
/**
 * The provider configs capabilities bring, by their type (declaration merging: a capability whose
 * sign-in type has a provider of its own adds `{ type: Config }` here).
 */
export interface CapabilityProviderTypes {}
/** The kind of a provider. */
export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | WebAuthnProviderType | (keyof CapabilityProviderTypes & string)

/** The shape returned by a provider's `profile` callback, seen by the `jwt` and `session` callbacks. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
  /**
   * When the provider vouched for `email` (OAuth/OIDC `profile` callbacks): a date only when the
   * provider says the address is verified, else `null` or absent. A new user is stored with it; it
   * decides whether an account may be linked by e-mail, and whether a later e-mail link proof
   * removes what was linked before (see the core README, "Account linking").
   */
  emailVerified?: Date | null
}

/** A JSON value, for the extra keys an account may carry. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** RFC 9396 authorization details returned by some token endpoints. */
export interface AuthorizationDetails {
  type: string
  [key: string]: unknown
}

/** A linked account, carrying the token set of an OAuth provider. */
export interface Account {
  /** Provider id. */
  provider: string
  /** oauth/oidc: the id from `profile()`; email: the address; credentials: the `id` from `authorize()`. */
  providerAccountId: string
  type: ProviderType
  userId?: string
  access_token?: string
  refresh_token?: string
  id_token?: string
  scope?: string
  /** Always lower-case. */
  token_type?: Lowercase<string>
  expires_in?: number
  /** Absolute time (seconds) at which `access_token` expires, computed from `expires_in`. */
  expires_at?: number
  authorization_details?: AuthorizationDetails[]
  [key: string]: JsonValue | AuthorizationDetails[] | undefined
}

/** Standard claims returned by an OAuth provider; any other claim is allowed. */
export interface Profile {
  id?: string | null
  sub?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  middle_name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  profile?: string | null
  picture?: any
  website?: string | null
  email?: string | null
  email_verified?: boolean | null
  gender?: string | null
  birthdate?: string | null
  zoneinfo?: string | null
  locale?: string | null
  phone_number?: string | null
  updated_at?: Date | string | number | null
  address?: {
    formatted?: string | null
    street_address?: string | null
    locality?: string | null
    region?: string | null
    postal_code?: string | null
    country?: string | null
  } | null
  [claim: string]: unknown
}

/** The session as exposed to the client by default. */
export interface DefaultSession {
  user?: User
  /** ISO date string. */
  expires: string
  /**
   * authlib's addition: "RefreshTokenError" once a provider refused the user's refresh token
   * (`getAccessToken`), the name Auth.js's refresh guide uses; absent otherwise.
   */
  error?: "RefreshTokenError"
}

/** The session returned by the `session` callback. Extend it by module augmentation. */
export interface Session extends DefaultSession {}

/** Styling of the built-in pages. */
export interface Theme {
  colorScheme?: "auto" | "dark" | "light"
  /**
   * authlib's addition: the app's name, shown beside the logo above every built-in page and in
   * its title ("Sign in · Acme"), so users see whose page they are on. Text only (escaped, at most
   * 60 characters shown).
   */
  name?: string
  logo?: string
  brandColor?: string
  buttonText?: string
}

/** Provider tokens as a session keeps them (the token fields of an account). */
export interface StoredProviderTokens {
  access_token?: string
  refresh_token?: string
  expires_at?: number
  token_type?: string
  scope?: string
  /** Set when the provider refused the refresh token; the session then carries `error: "RefreshTokenError"`. */
  error?: "RefreshTokenError"
}
