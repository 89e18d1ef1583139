import { timingSafeEqual } from "node:crypto"
import { refuse } from "../errors.js"

/**
 * The `InResponseTo` rule, for the Response and for the bearer confirmation alike. With a request this
 * browser started (`expected`), the value must be present and equal. Without one, a value is
 * `IN_RESPONSE_TO_UNKNOWN` (it answers someone else's request) and its absence is accepted only when
 * IdP-initiated sign-in is explicitly allowed, else `IN_RESPONSE_TO_MISSING`.
 */
export function checkInResponseTo(value: string | null, expected: string | null, allowIdpInitiated: boolean, where: string): void {
  if (expected !== null) {
    if (value === null) refuse("IN_RESPONSE_TO_MISSING", `${where} has no InResponseTo`)
    if (!sameString(value, expected)) refuse("IN_RESPONSE_TO_UNKNOWN", `${where} answers another request`)
    return
  }
  if (value !== null) refuse("IN_RESPONSE_TO_UNKNOWN", `${where} answers a request this browser did not start`)
  if (!allowIdpInitiated) refuse("IN_RESPONSE_TO_MISSING", `${where} is unsolicited (IdP-initiated sign-in is not allowed)`)
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
