import type { JWT } from "./types.js"
import { tokenError } from "./errors.js"

/** Seconds of clock skew tolerated on `exp` and `nbf`, as Auth.js does. */
export const CLOCK_TOLERANCE = 15

/** Current time in whole seconds since the epoch (JWT NumericDate). */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

/** Parses the authenticated plaintext; only a JSON object is a payload. */
export function parsePayload(plaintext: string): JWT {
  let payload: unknown
  try {
    payload = JSON.parse(plaintext)
  } catch {
    throw tokenError("PAYLOAD_INVALID", "JWT payload is not JSON")
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw tokenError("PAYLOAD_INVALID", "JWT payload must be a JSON object")
  }
  return payload as JWT
}

function numericClaim(payload: JWT, claim: "iat" | "nbf" | "exp"): number | undefined {
  const value = payload[claim]
  if (value === undefined) return undefined
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw tokenError("CLAIM_INVALID", `JWT "${claim}" claim must be a finite number`, { claim })
  }
  return value
}

/** A claim the header repeats (RFC 7516 5.3) must equal the encrypted one. */
function checkReplicated(header: Record<string, unknown>, payload: JWT): void {
  for (const claim of ["iss", "sub", "aud"]) {
    if (header[claim] === undefined) continue
    if (JSON.stringify(header[claim]) !== JSON.stringify(payload[claim])) {
      const message = `JWT header "${claim}" differs from the encrypted claim`
      throw tokenError("CLAIM_INVALID", message, { claim })
    }
  }
}

/** Checks the time claims with {@link CLOCK_TOLERANCE}: `exp` is exclusive, as in RFC 7519 4.1.4. */
export function checkClaims(header: Record<string, unknown>, payload: JWT, now: number): void {
  numericClaim(payload, "iat")
  const nbf = numericClaim(payload, "nbf")
  const exp = numericClaim(payload, "exp")
  if (nbf !== undefined && nbf > now + CLOCK_TOLERANCE) {
    throw tokenError("TOKEN_NOT_YET_VALID", 'JWT "nbf" is in the future', { nbf, now })
  }
  if (exp !== undefined && exp <= now - CLOCK_TOLERANCE) {
    throw tokenError("TOKEN_EXPIRED", "JWT has expired", { exp, now })
  }
  checkReplicated(header, payload)
}
