/**
 * Credentials sign-in: the sign-in type of `credentials` providers (`authorize` decides; its rules
 * in `sign-in-type.ts`) and its throttling (per identifier and client network, device marks: `limit.ts`).
 */
import type { Capability } from "../../kernel/types/capability.js"
import { credentialsSignInType } from "./sign-in-type.js"
import { CREDENTIALS_RATE_LIMITS, identifierOptionProblem } from "./rate-limits.js"

export const credentials: Capability = {
  name: "credentials",
  signInTypes: { credentials: credentialsSignInType },
  rateLimits: CREDENTIALS_RATE_LIMITS,
  check: identifierOptionProblem,
}
