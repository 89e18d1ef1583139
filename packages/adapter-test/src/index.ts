/**
 * `@authlib/adapter-test`: the adapter conformance suite of authlib, compatible with the Auth.js
 * adapter test entry (`runBasicTests({ adapter, db, fixtures, skipTests, testWebAuthnMethods })`),
 * plus an in-memory adapter that passes it, and `runRateLimitStoreTests`, the suite of core's
 * rate-limit stores.
 *
 * @example
 * ```ts
 * // my-adapter.test.ts (vitest)
 * import { runBasicTests } from "@authlib/adapter-test"
 * runBasicTests({ adapter: MyAdapter(client), db: { user: (id) => ..., session: ..., account: ..., verificationToken: ... } })
 * ```
 */
import { afterAll, beforeAll, describe, test } from "vitest"
import { createContext } from "./context.js"
import { usersSuite } from "./users.js"
import { usersWithoutEmailSuite } from "./users-without-email.js"
import { accountsSuite } from "./accounts.js"
import { sessionsSuite } from "./sessions.js"
import { extendSessionSuite } from "./extend-session.js"
import { verificationTokensSuite } from "./verification-tokens.js"
import { retireVerificationTokensSuite } from "./retire-verification-tokens.js"
import { getVerificationTokenSuite } from "./get-verification-token.js"
import { updateAccountSuite } from "./update-account.js"
import { userSessionsSuite } from "./user-sessions.js"
import { sessionEpochSuite } from "./session-epoch.js"
import { authenticatorsSuite } from "./authenticators.js"
import { deleteAuthenticatorSuite, updateAuthenticatorSuite } from "./passkey-management.js"
import { listAccountsSuite } from "./list-accounts.js"
import { racesSuite } from "./races.js"
import { duplicatesSuite } from "./duplicates.js"
import { portSuite } from "./ports.js"
import { createSessionForAccountSuite, useVerificationTokenForAccountSuite } from "./account-shortcuts.js"
import { useVerificationTokenAndCreateSessionSuite } from "./link-sign-in.js"
import { passkeySignInSuite } from "./passkey-sign-in.js"
import { twoFactorSuite } from "./two-factor.js"
import { organizationsSuite } from "./organizations.js"
import { ssoSuite } from "./sso.js"
import type { Adapter } from "@authlib/core"
import type { TestOptions } from "./types.js"

export type { Fixtures, RecordFactory, SkipTest, SuiteContext, TestDb, TestOptions, UserWithEmail } from "./types.js"
export { MemoryAdapter, MemoryAdapterError, createMemoryStore, dumpStore } from "./memory-adapter.js"
export { runRateLimitStoreTests, type RateLimitStoreTestOptions } from "./rate-limit-store.js"
export type { MemoryAdapterErrorCode, MemoryStore, MemoryTwoFactor } from "./memory-adapter.js"
export { portCoverage, type PortCoverage } from "./ports.js"

const NO_EXTEND_SESSION = "the adapter has no extendSession, an optional method (core falls back to updateSession)"
const NO_DELETE_AUTHENTICATOR = "the adapter has no deleteAuthenticator, an optional method (core cannot delete passkeys with it)"
const NO_UPDATE_AUTHENTICATOR = "the adapter has no updateAuthenticator, an optional method (core cannot rename passkeys with it)"
const NO_RETIRE_TOKENS =
  "the adapter has no retireVerificationTokens, an optional method (core then bounds live e-mail links by its send limits alone)"
const NO_SESSION_FOR_ACCOUNT = "the adapter has no createSessionForAccount, an optional method (core then stores a credentials session in two calls)"
const NO_TOKEN_FOR_ACCOUNT = "the adapter has no useVerificationTokenForAccount, an optional method (core then completes an e-mail link in two calls)"
const NO_LINK_SESSION =
  "the adapter has no useVerificationTokenAndCreateSession, an optional method (core then completes a returning user's e-mail link in two calls)"
const NO_PASSKEY_SIGN_IN =
  "the adapter has no useVerificationTokenAndGetAuthenticator/updateAuthenticatorCounterAndCreateSession, optional methods (core then signs in with a passkey in four or five calls)"
const NO_GET_TOKEN = "the adapter has no getVerificationToken, an optional method (core then shows the confirm page for used or expired e-mail links too)"
const NO_UPDATE_ACCOUNT = "the adapter has no updateAccount, an optional method (core then cannot write refreshed provider tokens back)"
const NO_USER_SESSIONS = "the adapter has no listSessionsByUserId/deleteSessionsByUserId, optional methods (core then cannot list or end a user's sessions)"
const NO_SESSION_EPOCH =
  "the adapter has no getUserSessionEpoch/incrementUserSessionEpoch, optional methods (core then cannot revoke JWT sessions before they expire)"
const NO_TWO_FACTOR = "the adapter has no two-factor port (getTwoFactor and the six methods beside it; core then offers no second factor)"
const NO_ORGANIZATIONS = "the adapter has no organizations port (createOrganization and the fifteen methods beside it; core then offers no organizations)"
const NO_SSO = "the adapter has no ssoConnections port (createSsoConnection and the ten methods beside it; core then offers no enterprise SSO)"
const NO_LIST_ACCOUNTS = "the adapter has no listAccountsByUserId, an optional method (core then refuses more deletions of a last passkey)"

/** The suite of an optional method: registered when the adapter has it, else listed as skipped with the reason. */
function optional(adapter: Adapter, method: keyof Adapter, reason: string, suite: () => void): void {
  if (typeof adapter[method] === "function") describe(method, suite)
  else describe.skip(`${method} (skipped: ${reason})`, suite)
}

/**
 * Registers the conformance suite with vitest: call it at the top level of a test file.
 *
 * - Every adapter method's round trip, compared with exact shapes (`Date`s are `Date`s, `null` for
 *   missing user fields, no extra keys), read back both through the adapter and through `db`.
 * - Users without an e-mail address (`email: null`): stored and read back with `null`, never found by
 *   `getUserByEmail` (not even with `""` or `"null"`), any number of them beside unique addresses.
 * - Unknown ids give `null`; `useVerificationToken` is single use and returns the stored expiry;
 *   `deleteUser` removes sessions, accounts and authenticators; `unlinkAccount`, `updateSession`.
 * - `extendSession`, when the adapter has it (it is optional; registered as skipped otherwise): extends
 *   only a session whose stored expiry is earlier than `dueBefore`, and of N parallel calls exactly one.
 * - Duplicate keys: `createUser` (id, email), `linkAccount`, `createSession` and `createAuthenticator`
 *   with a key already taken reject and leave the first record unchanged.
 * - Races: N parallel `useVerificationToken` calls on one token (exactly one wins), parallel session
 *   writes, `deleteUser` racing `createSession`.
 * - The WebAuthn methods when `testWebAuthnMethods` is on (then `db.authenticator` is required), with
 *   the optional passkey-management methods when the adapter has them (else listed as skipped):
 *   `deleteAuthenticator` (only the named credential; of N parallel calls exactly one gets it),
 *   `updateAuthenticator` (the name; `createdAt` stamped by `createAuthenticator`, `lastUsedAt` by
 *   `updateAuthenticatorCounter`).
 * - `listAccountsByUserId`, optional: exactly the user's accounts.
 * - `listSessionsByUserId` and `deleteSessionsByUserId`, optional: exactly the user's sessions; all
 *   of them, or all but one, deleted with the count answered; other users untouched.
 * - `updateAccount`, optional: a partial update of the token fields (keys, type and userId never
 *   change), `null` for an unknown account, and with `expected` a compare-and-swap on the stored
 *   refresh token: of N parallel calls with the same expected token exactly one wins.
 * - `getVerificationToken`, optional: the stored token without using it up; `null` for an unknown,
 *   used or other identifier's token.
 * - `useVerificationTokenAndCreateSession`, optional: the link used once (of N parallel uses, at
 *   least 16, exactly one gets it and exactly one session is stored), a session with its metadata
 *   only for the verified owner of the link's address and a live link, nothing written for an
 *   unknown token or a taken session token (the link then stays usable).
 * - `useVerificationTokenAndGetAuthenticator` and `updateAuthenticatorCounterAndCreateSession`,
 *   optional (with WebAuthn): the challenge's token used once (of N parallel uses, at most one
 *   receives it) with the passkey read; the counter set with the owner's session stored, nothing
 *   written for a passkey that no longer exists.
 * - The two-factor port, optional (`getTwoFactor` and six more; then `db.dump` is required): a
 *   pending secret, enabling by compare-and-swap on it, a last used TOTP step that only moves
 *   forward (of N parallel calls for one step exactly one wins), single-use backup codes (of 20
 *   parallel uses of one code exactly one wins), replacing and deleting, the cascade from
 *   `deleteUser`, and no secret or backup code in plain text anywhere in the store.
 * - The organizations port, optional (`createOrganization` and fifteen more): every method's
 *   contract (unknown ids give `null`, unique slugs, `deleteOrganization` and `deleteUser`
 *   cascades, a pending invitation replaced rather than duplicated, `member-exists`, the
 *   `membershipLimit` counting members and pending unexpired invitations, the `actor` condition,
 *   addresses compared case-insensitively with a `+tag` kept, used, revoked and expired invitations
 *   refused, the user fields of `listOrganizationMembers`) and its races: two owners demoting or
 *   removing each other (or deleted) at once leave one owner, 20 parallel acceptances of one
 *   invitation give one membership, parallel invitations never pass the limit; `deleteUser` of a
 *   last owner with other members throws `OrganizationError` `LAST_OWNER` and changes nothing.
 * - The `ssoConnections` port, optional (`createSsoConnection` and ten more): connections stored
 *   as given (sealed secrets untouched, settings), patches, domains added once, cascades with the
 *   connection and the organization, `addOrganizationMember` keeping a member's role and counting
 *   `membershipLimit`, `claimVerificationToken` storing a token once, and their races: of several
 *   connections verifying one domain at once exactly one succeeds, of joins for the last seat one
 *   is added, of claims of one token one wins.
 * - `retireVerificationTokens`, optional: keeps the `keep` newest tokens of an identifier (by
 *   `expires`), answers how many it deleted, never touches other identifiers, and under concurrent
 *   calls never deletes one of the `keep` newest.
 *
 * Throws at once when a `skipTests` entry lacks a reason; fails the run when it names no test.
 */
export function runBasicTests(options: TestOptions): void {
  const optionalSuite = (method: keyof Adapter, reason: string, suite: () => void) => optional(options.adapter, method, reason, suite)
  if (options.testWebAuthnMethods && !options.db.authenticator) {
    throw new TypeError("testWebAuthnMethods needs db.authenticator to read authenticators directly")
  }
  if (typeof options.adapter.getTwoFactor === "function" && !options.db.dump) {
    throw new TypeError("an adapter with the two-factor port needs db.dump, to check that no secret is stored in plain text")
  }
  const ctx = createContext(options)
  beforeAll(async () => {
    await options.db.connect?.()
  })
  afterAll(async () => {
    await options.db.disconnect?.()
  })
  describe("users", () => usersSuite(ctx))
  describe("users without an e-mail address", () => usersWithoutEmailSuite(ctx))
  describe("accounts", () => accountsSuite(ctx))
  describe("sessions", () => sessionsSuite(ctx))
  optionalSuite("extendSession", NO_EXTEND_SESSION, () => extendSessionSuite(ctx))
  describe("verification tokens", () => verificationTokensSuite(ctx))
  optionalSuite("retireVerificationTokens", NO_RETIRE_TOKENS, () => retireVerificationTokensSuite(ctx))
  optionalSuite("getVerificationToken", NO_GET_TOKEN, () => getVerificationTokenSuite(ctx))
  optionalSuite("createSessionForAccount", NO_SESSION_FOR_ACCOUNT, () => createSessionForAccountSuite(ctx))
  optionalSuite("useVerificationTokenForAccount", NO_TOKEN_FOR_ACCOUNT, () => useVerificationTokenForAccountSuite(ctx))
  optionalSuite("useVerificationTokenAndCreateSession", NO_LINK_SESSION, () => useVerificationTokenAndCreateSessionSuite(ctx))
  if (ctx.webauthn) {
    describe("authenticators", () => authenticatorsSuite(ctx))
    optionalSuite("deleteAuthenticator", NO_DELETE_AUTHENTICATOR, () => deleteAuthenticatorSuite(ctx))
    optionalSuite("updateAuthenticator", NO_UPDATE_AUTHENTICATOR, () => updateAuthenticatorSuite(ctx))
    optionalSuite("updateAuthenticatorCounterAndCreateSession", NO_PASSKEY_SIGN_IN, () => passkeySignInSuite(ctx))
  }
  optionalSuite("listAccountsByUserId", NO_LIST_ACCOUNTS, () => listAccountsSuite(ctx))
  optionalSuite("updateAccount", NO_UPDATE_ACCOUNT, () => updateAccountSuite(ctx))
  portSuite(options.adapter, "sessionListing", NO_USER_SESSIONS, () => userSessionsSuite(ctx))
  portSuite(options.adapter, "sessionEpochs", NO_SESSION_EPOCH, () => sessionEpochSuite(ctx))
  portSuite(options.adapter, "twoFactor", NO_TWO_FACTOR, () => twoFactorSuite(ctx))
  portSuite(options.adapter, "organizations", NO_ORGANIZATIONS, () => organizationsSuite(ctx))
  portSuite(options.adapter, "ssoConnections", NO_SSO, () => ssoSuite(ctx))
  describe("duplicate keys", () => duplicatesSuite(ctx))
  describe("races", () => racesSuite(ctx))
  describe("skipTests", () => {
    test("every skipTests entry names a test of the suite", () => ctx.assertSkipsUsed())
  })
}
