/**
 * E-mail (magic link) sign-in, the flow of providers with `type: "email"`:
 *
 * - POST signin/:provider (`flow-signin.ts`): normalise the address, ask the `signIn` callback with
 *   `email: { verificationRequest: true }`, store the token hashed, send the link, redirect to
 *   verify-request.
 * - GET callback/:provider (`flow-callback.ts`): the confirm page, which consumes nothing.
 * - POST callback/:provider (CSRF checked): consume the token once and hand the user (found by
 *   e-mail, or new) to `issueSession`, which creates or verifies the user, links the `email`
 *   account and issues the session.
 *
 * Its rules as a sign-in type (first factor, users, page part, environment): `sign-in-type.ts`.
 *
 * Needs an adapter with `createVerificationToken`, `useVerificationToken` and `getUserByEmail`
 * (plus `createUser`, `updateUser`, `getUserByAccount`, `linkAccount` to store the user).
 */
import { verifyRequest } from "./route.js"
import type { Capability } from "../../kernel/types/capability.js"
import { emailSignInType } from "./sign-in-type.js"
import { EMAIL_RATE_LIMITS, maxLiveTokensProblem } from "./rate-limits.js"

export const email: Capability = {
  name: "email",
  signInTypes: { email: emailSignInType },
  rateLimits: EMAIL_RATE_LIMITS,
  check: maxLiveTokensProblem,
  routes: [{ action: "verify-request", answers: "page", GET: { handler: verifyRequest, csrf: false } }],
}

export { MAX_ADDRESS_LENGTH, MAX_LOCAL_PART_LENGTH, normalizeEmailAddress } from "./normalize-identifier.js"
export type { NormalizeEmailOptions } from "./normalize-identifier.js"
export { DEFAULT_EMAIL_MAX_AGE, hashToken } from "./token.js"
