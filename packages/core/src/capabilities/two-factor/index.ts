/**
 * Two-factor sign-in: after every first factor of a user who enabled it, a pending sign-in and
 * the `two-factor` step (TOTP or backup code) before any session; the user's own enrolment,
 * confirmation, backup codes and disabling (`POST two-factor`, `functions.ts`). Building blocks:
 * `totp.ts` (RFC 6238), `base32.ts`, `otpauth-uri.ts`, `qr-svg.ts`, `secret-box.ts` (the TOTP key
 * sealed with the auth secret, bound to its user), `backup-codes.ts` (60-bit codes, keyed hashes),
 * `store.ts` (the adapter's `twoFactor` port), `lockout.ts` (the cap on wrong TOTP codes in a row;
 * `unlock.ts`, the app's way to lift it). A passkey as second factor: `passkey.ts` (through the
 * passkey capability's `index.ts`); enrolment forced by `twoFactor.required`: `required.ts`,
 * `enrol-pending.ts`. What it adds to the kernel's tables, declared here and typed by declaration
 * merging: its option and page (`options.ts`), its event (`events.ts`), its rate-limit groups (`rate-limits.ts`), its errors
 * (`errors.ts`), its adapter port (`adapter.ts`), and its answers to the step-up gate
 * (`freshness.ts`), to whether a verified passkey counts as two factors, and to the pre-hijacking
 * clean-up (`footholds.ts`: the squatter's second factor goes with their links).
 */
import { missingError, missingMethods } from "../../kernel/ports/ports.js"
import type { Capability } from "../../kernel/types/capability.js"
import { CODE_FIELD } from "./code-in-request.js"
import { TWO_FACTOR_PORT } from "./adapter.js"
import { holdForSecondFactor } from "./enforce.js"
import { twoFactorErrors } from "./errors.js"
import { twoFactorFreshness } from "./freshness.js"
import { removeSecondFactors } from "./footholds.js"
import { twoFactorOption } from "./options.js"
import { TWO_FACTOR_RATE_LIMITS } from "./rate-limits.js"
import { heldTwoFactorSignIn } from "./passkey.js"
import { issuerProblem } from "./otpauth-uri.js"
import { requiredProblem } from "./required.js"
import { twoFactorActions, twoFactorPage } from "./route.js"

export const twoFactor: Capability = {
  name: "two-factor",
  requires: ["webauthn"],
  routes: [{ action: "two-factor", answers: "json", page: "twoFactor", GET: { handler: twoFactorPage, csrf: false }, POST: { actions: twoFactorActions, csrf: true } }],
  beforeIssue: { active: (config) => config.twoFactor !== undefined, bodyFields: [CODE_FIELD], hold: holdForSecondFactor },
  heldSignIn: heldTwoFactorSignIn,
  options: twoFactorOption,
  rateLimits: TWO_FACTOR_RATE_LIMITS,
  errors: twoFactorErrors,
  ports: { twoFactor: TWO_FACTOR_PORT },
  freshness: twoFactorFreshness,
  removeFootholds: removeSecondFactors,
  oneStepMultiFactor: (config) => config.twoFactor?.passkeyCountsAsTwoFactors !== false,
  secondFactorLifetime: (config) => config.twoFactor?.reauthenticateAfter ?? null,
  check(config) {
    if (!config.twoFactor) return undefined
    const required = requiredProblem(config) ?? issuerProblem(config.twoFactor.issuer)
    if (required) return required
    const missing = missingMethods(config.adapter, TWO_FACTOR_PORT)
    return missing.length ? missingError(missing, { what: '"twoFactor"', otherwise: "or remove the option" }) : undefined
  },
}
