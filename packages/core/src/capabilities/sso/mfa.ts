/**
 * Whether an IdP's authentication context says the person passed more than one factor. Only
 * classes that name MFA count (REFEDS, Microsoft's, SAML's multi-factor classes); anything else,
 * a password included, is one factor.
 */
const MULTI_FACTOR_CLASSES = new Set([
  "https://refeds.org/profile/mfa",
  "http://schemas.microsoft.com/claims/multipleauthn",
  "urn:oasis:names:tc:SAML:2.0:ac:classes:MultiFactor",
  "urn:oasis:names:tc:SAML:2.0:ac:classes:TimeSyncToken",
])

/** Whether `classRef` is a multi-factor class. */
export const isMultiFactorContext = (classRef: string | null | undefined): boolean => typeof classRef === "string" && MULTI_FACTOR_CLASSES.has(classRef)
