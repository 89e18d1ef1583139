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
 * Needs an adapter with `createVerificationToken`, `useVerificationToken` and `getUserByEmail`
 * (plus `createUser`, `updateUser`, `getUserByAccount`, `linkAccount` to store the user).
 */
import type { EmailConfig } from "../../kernel/types/providers.js"
import type { Flow } from "../../kernel/types/sign-in.js"
import { emailCallback } from "./flow-callback.js"
import { emailSignin } from "./flow-signin.js"
import { checkEmailProvider } from "./check.js"
import { verifyRequest } from "./route.js"
import type { Capability } from "../../kernel/types/capability.js"

const emailFlow: Flow<EmailConfig> = {
  callbackMethods: ["GET", "POST"],
  callbackCsrf: true,
  signin: emailSignin,
  callback: emailCallback,
}

export const email: Capability = {
  name: "email",
  flows: { email: { flow: emailFlow, check: checkEmailProvider } },
  routes: [{ action: "verify-request", answers: "page", GET: { handler: verifyRequest, csrf: false } }],
}

export { MAX_ADDRESS_LENGTH, MAX_LOCAL_PART_LENGTH, normalizeEmailAddress } from "./normalize-identifier.js"
export type { NormalizeEmailOptions } from "./normalize-identifier.js"
export { DEFAULT_EMAIL_MAX_AGE, hashToken } from "./token.js"
