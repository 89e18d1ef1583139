/**
 * One rule for every OpenID-style preset: an address the provider itself marks unverified is not
 * passed on, because core links accounts and finds users by e-mail and anybody can type an address.
 */

/** The claims the rule reads (the OpenID Connect standard names). */
export interface EmailClaims {
  email?: string | null
  email_verified?: boolean | null
}

/** The profile's address, or `null` when it has none or the provider says it is unverified. */
export function verifiedEmail(profile: EmailClaims): string | null {
  return profile.email_verified === false ? null : (profile.email ?? null)
}
