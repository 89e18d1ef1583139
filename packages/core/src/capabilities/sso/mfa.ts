/**
 * Whether an IdP says the person passed more than one factor. Only claims that name MFA count
 * (REFEDS, Microsoft's, SAML's multi-factor classes; OIDC: `amr` holding `mfa` (RFC 8176), or an
 * `acr` of those classes or OpenID PAPE's multi-factor policies); anything else, a password
 * included, is one factor. Callers pass values read from the signed assertion or the verified ID
 * token only: a claim from anywhere else (a query parameter, the token response beside the ID
 * token, userinfo) never counts.
 */
const MULTI_FACTOR_CLASSES = new Set([
  "https://refeds.org/profile/mfa",
  "http://schemas.microsoft.com/claims/multipleauthn",
  "urn:oasis:names:tc:SAML:2.0:ac:classes:MultiFactor",
  "urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken",
])

/** OpenID Provider Authentication Policy Extension's multi-factor policies, as `acr` values. */
const MULTI_FACTOR_ACR = new Set([
  ...MULTI_FACTOR_CLASSES,
  "http://schemas.openid.net/pape/policies/2007/06/multi-factor",
  "http://schemas.openid.net/pape/policies/2007/06/multi-factor-physical",
])

/** Whether `classRef` (a signed assertion's `AuthnContextClassRef`) is a multi-factor class. */
export const isMultiFactorContext = (classRef: string | null | undefined): boolean => typeof classRef === "string" && MULTI_FACTOR_CLASSES.has(classRef)

/** Whether a verified ID token's claims say MFA: `amr` holds `mfa`, or `acr` is a multi-factor class. */
export function isMultiFactorIdToken(claims: Readonly<Record<string, unknown>>): boolean {
  if (Array.isArray(claims.amr) && claims.amr.includes("mfa")) return true
  return typeof claims.acr === "string" && MULTI_FACTOR_ACR.has(claims.acr)
}
