/**
 * One rule for every OpenID-style preset: an address the provider itself marks unverified is not
 * passed on, because core links accounts and finds users by e-mail and anybody can type an address;
 * and an address counts as verified (`emailVerified`) only when the provider says so.
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

/**
 * The user's `emailVerified`: now, when the provider says `email_verified: true` (the boolean) for
 * the address it gave; else `null`. An absent claim is not a yes: core then treats the address as
 * unverified (never linked by e-mail; removed links when someone proves it by e-mail link).
 */
export function emailVerifiedAt(profile: EmailClaims): Date | null {
  return profile.email_verified === true && typeof profile.email === "string" && profile.email !== "" ? new Date() : null
}
