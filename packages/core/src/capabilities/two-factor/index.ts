/**
 * Two-factor sign-in: after every first factor of a user who enabled it, a pending sign-in and
 * the `two-factor` step (TOTP or backup code) before any session; the user's own enrolment,
 * confirmation, backup codes and disabling (`POST two-factor`, `functions.ts`). Building blocks:
 * `totp.ts` (RFC 6238), `base32.ts`, `otpauth-uri.ts`, `qr-svg.ts`, `secret-box.ts` (the TOTP key
 * sealed with the auth secret, bound to its user), `backup-codes.ts` (60-bit codes, keyed hashes),
 * `store.ts` (the adapter's `twoFactor` port). A passkey as second factor: `passkey.ts` (through the
 * passkey capability's `index.ts`); enrolment forced by `twoFactor.required`: `required.ts`,
 * `enrol-pending.ts`.
 */
import { missingError, missingMethods, PORTS } from "../../kernel/ports/ports.js"
import type { Capability } from "../../kernel/types/capability.js"
import { CODE_FIELD } from "./code-in-request.js"
import { holdForSecondFactor } from "./enforce.js"
import { heldTwoFactorSignIn } from "./passkey.js"
import { issuerProblem } from "./otpauth-uri.js"
import { requiredProblem } from "./required.js"
import { twoFactorAction, twoFactorPage } from "./route.js"

export const twoFactor: Capability = {
  name: "two-factor",
  routes: [{ action: "two-factor", answers: "json", GET: { handler: twoFactorPage, csrf: false }, POST: { handler: twoFactorAction, csrf: true } }],
  beforeIssue: { active: (config) => config.twoFactor !== undefined, bodyFields: [CODE_FIELD], hold: holdForSecondFactor },
  heldSignIn: heldTwoFactorSignIn,
  check(config) {
    if (!config.twoFactor) return undefined
    const required = requiredProblem(config) ?? issuerProblem(config.twoFactor.issuer)
    if (required) return required
    const missing = missingMethods(config.adapter, PORTS.twoFactor)
    return missing.length ? missingError(missing, { what: '"twoFactor"', otherwise: "or remove the option" }) : undefined
  },
}
