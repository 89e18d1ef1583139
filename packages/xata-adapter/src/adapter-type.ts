import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterOrganization,
  AdapterOrganizationInvitation,
  AdapterOrganizationMember,
  AdapterOrganizationMemberWithUser,
  AdapterOrganizationWithRole,
  AdapterSession,
  AdapterTwoFactor,
  AdapterUser,
  SessionMetadata,
  VerificationToken,
} from "@authlib/core"

/**
 * The adapter contract as `XataAdapter` implements it: every method present and returning a Promise,
 * with the exact results (deletes return the deleted record or `null`).
 */
export interface XataAdapterMethods extends Required<Adapter> {
  /** A `null` or absent `email` is stored as NULL (unique only when present); a taken one is `DUPLICATE_EMAIL`. */
  createUser(user: AdapterUser): Promise<AdapterUser>
  getUser(id: string): Promise<AdapterUser | null>
  getUserByEmail(email: string): Promise<AdapterUser | null>
  getUserByAccount(key: Pick<AdapterAccount, "provider" | "providerAccountId">): Promise<AdapterUser | null>
  /**
   * Throws `UNKNOWN_USER` when no user has `id`; `DUPLICATE_EMAIL` when the new e-mail is taken.
   * `email: null` removes the address; an absent `email` leaves it as it is.
   */
  updateUser(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Promise<AdapterUser>
  /**
   * One statement, with the organizations' rule: throws `OrganizationError` `LAST_OWNER`, deleting
   * nothing, when the user is the only owner of an organization with other members; deletes the
   * organizations whose only member they are.
   */
  deleteUser(userId: string): Promise<AdapterUser | null>
  linkAccount(account: AdapterAccount): Promise<AdapterAccount | null>
  unlinkAccount(key: Pick<AdapterAccount, "provider" | "providerAccountId">): Promise<AdapterAccount | undefined>
  /** Stores the optional metadata (`createdAt`, `clientDescription`, `clientNetwork`, `error`) too. */
  createSession(session: { sessionToken: string; userId: string; expires: Date } & SessionMetadata): Promise<AdapterSession>
  getSessionAndUser(sessionToken: string): Promise<{ session: AdapterSession; user: AdapterUser } | null>
  /**
   * A new session for the user who owns the account, with its link row, in one statement; `null`
   * (nothing written) when no user owns it. What core's credentials sign-in calls under database
   * sessions, in place of `getUserByAccount` then `createSession`.
   */
  createSessionForAccount(
    account: Pick<AdapterAccount, "provider" | "providerAccountId">,
    session: { sessionToken: string; expires: Date } & Omit<SessionMetadata, "error">,
  ): Promise<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession(session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">): Promise<AdapterSession | null>
  /** One conditional `UPDATE ... WHERE expires < dueBefore RETURNING`: of concurrent calls, one extends the session. */
  extendSession(session: { sessionToken: string; expires: Date }, dueBefore: Date): Promise<AdapterSession | null>
  deleteSession(sessionToken: string): Promise<AdapterSession | null>
  createVerificationToken(token: VerificationToken): Promise<VerificationToken | null>
  useVerificationToken(params: { identifier: string; token: string }): Promise<VerificationToken | null>
  /**
   * `useVerificationToken` and, in the same statement, the user who owns the account
   * `provider`/`providerAccountId` (`owner`, `null` when nobody does); `null` when no caller
   * received the token. What core's e-mail completion calls in place of `useVerificationToken`
   * then `getUserByAccount`.
   */
  useVerificationTokenForAccount(
    params: { identifier: string; token: string },
    account: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<{ token: VerificationToken; owner: AdapterUser | null } | null>
  /**
   * One statement: `useVerificationTokenForAccount`, and a session with its link row for the owner
   * when the token is live and the owner's address is the token's and verified (`session`, else
   * `null`). What core's e-mail completion calls, where nothing must see the user before the session.
   */
  useVerificationTokenAndCreateSession(
    params: { identifier: string; token: string },
    account: Pick<AdapterAccount, "provider" | "providerAccountId">,
    session: { sessionToken: string; expires: Date } & Omit<SessionMetadata, "error">,
  ): Promise<{ token: VerificationToken; owner: AdapterUser | null; session: AdapterSession | null } | null>
  /** One statement: the token used (single use, as `useVerificationToken`) and the passkey read. */
  useVerificationTokenAndGetAuthenticator(
    params: { identifier: string; token: string },
    credentialID: string,
  ): Promise<{ token: VerificationToken | null; authenticator: AdapterAuthenticator | null }>
  /**
   * One statement: the counter set and `lastUsedAt` stamped, the owner's session and its link row
   * written; `null`, nothing written, when no passkey has the id (or its user is gone).
   */
  updateAuthenticatorCounterAndCreateSession(
    credentialID: string,
    newCounter: number,
    session: { sessionToken: string; expires: Date } & Omit<SessionMetadata, "error">,
  ): Promise<{ authenticator: AdapterAuthenticator; user: AdapterUser; session: AdapterSession } | null>
  /** One `SELECT`: the token as stored, left in place; `null` when unknown. */
  getVerificationToken(params: { identifier: string; token: string }): Promise<VerificationToken | null>
  /**
   * One `DELETE` (in a CTE that counts it): deletes the tokens of `identifier` but the `keep` with the
   * latest `expires` and answers how many it deleted; concurrent calls never delete one of the
   * `keep` newest. Throws `INVALID_INPUT` when `keep` is not an integer >= 1.
   */
  retireVerificationTokens(identifier: string, keep: number): Promise<number>
  getAccount(providerAccountId: string, provider: string): Promise<AdapterAccount | null>
  getAuthenticator(credentialID: string): Promise<AdapterAuthenticator | null>
  createAuthenticator(authenticator: AdapterAuthenticator): Promise<AdapterAuthenticator>
  listAuthenticatorsByUserId(userId: string): Promise<AdapterAuthenticator[]>
  /** Throws `UNKNOWN_CREDENTIAL` when no authenticator has `credentialID`. Stamps `lastUsedAt` (now) in the same statement. */
  updateAuthenticatorCounter(credentialID: string, newCounter: number): Promise<AdapterAuthenticator>
  /** One `DELETE ... RETURNING`: of concurrent calls for one credential exactly one receives it; `null` when unknown. */
  deleteAuthenticator(credentialID: string): Promise<AdapterAuthenticator | null>
  /** Sets `name` (`null` clears it; an absent `name` changes nothing); `null` when unknown. */
  updateAuthenticator(credentialID: string, patch: { name?: string | null }): Promise<AdapterAuthenticator | null>
  /** The user's sessions, soonest expiring first; `[]` for an unknown user. */
  listSessionsByUserId(userId: string): Promise<AdapterSession[]>
  /** Deletes the user's sessions (and their links) except `keepSessionToken`'s, in one statement; answers how many. */
  deleteSessionsByUserId(userId: string, keepSessionToken?: string): Promise<number>
  /** `COALESCE("sessionEpoch", 0)` of the user; `null` for an unknown user. */
  getUserSessionEpoch(userId: string): Promise<number | null>
  /** One `UPDATE ... SET "sessionEpoch" = COALESCE("sessionEpoch", 0) + 1 RETURNING`; `null` for an unknown user. */
  incrementUserSessionEpoch(userId: string): Promise<number | null>
  /** The user's accounts, oldest first; `[]` for an unknown user. */
  listAccountsByUserId(userId: string): Promise<AdapterAccount[]>
  /**
   * One `UPDATE ... RETURNING` of the named token fields; with `expected`, only while the stored
   * `refresh_token IS NOT DISTINCT FROM` it (of racing callers exactly one wins); `null` when unknown
   * or the refresh token differs.
   */
  /** One `SELECT` of the user's `authlib_two_factors` row (`backupCodesLeft` is the array's length); `null` when none. */
  getTwoFactor(userId: string): Promise<AdapterTwoFactor | null>
  /** One `INSERT ... ON CONFLICT DO UPDATE ... WHERE NOT enabled`: `null` for an unknown user or an enabled record. */
  setTwoFactorPendingSecret(userId: string, secret: string): Promise<AdapterTwoFactor | null>
  /** One `UPDATE ... WHERE secret = $2 AND NOT enabled RETURNING`: of racing callers exactly one receives the record. */
  enableTwoFactor(userId: string, params: { secret: string; step: number; backupCodeHashes: readonly string[] }): Promise<AdapterTwoFactor | null>
  /** One `UPDATE ... SET "failedAttempts" = "failedAttempts" + 1 WHERE enabled AND "failedAttempts" < $2 RETURNING`: racing attempts are all counted, up to the ceiling. */
  countTwoFactorAttempt(userId: string, ceiling: number): Promise<AdapterTwoFactor | null>
  /** One `UPDATE ... WHERE enabled AND "lastUsedStep" < $2`, the count set back to 0: of racing callers for one step exactly one gets `true`. */
  recordTwoFactorStep(userId: string, step: number): Promise<boolean>
  /** One `UPDATE` removing the matching hash (and the count set back to 0) `WHERE enabled AND "backupCodes" && $2`: of racing callers exactly one gets `true`. */
  useTwoFactorBackupCode(userId: string, codeHashes: readonly string[]): Promise<boolean>
  /** One `UPDATE ... SET "failedAttempts" = 0 WHERE enabled`. */
  resetTwoFactorFailures(userId: string): Promise<boolean>
  /** One `UPDATE ... WHERE enabled`: the old hashes are gone. */
  replaceTwoFactorBackupCodes(userId: string, codeHashes: readonly string[]): Promise<boolean>
  /** One `DELETE ... RETURNING`. */
  deleteTwoFactor(userId: string): Promise<boolean>
  /** One statement: the organization and its owner's membership (`ON CONFLICT (slug) DO NOTHING`: `"slug-taken"`, nothing written). */
  createOrganization(organization: { id: string; name: string; slug: string; ownerId: string }): Promise<AdapterOrganization | "slug-taken">
  getOrganization(id: string): Promise<AdapterOrganization | null>
  /** One lookup on the unique slug index. */
  getOrganizationBySlug(slug: string): Promise<AdapterOrganization | null>
  /** One `UPDATE`; the unique slug index refuses a taken slug (`"slug-taken"`, nothing written). */
  updateOrganization(id: string, patch: { name?: string; slug?: string }): Promise<AdapterOrganization | "slug-taken" | null>
  /** One `DELETE`: members and invitations go with it (`ON DELETE CASCADE`). */
  deleteOrganization(id: string): Promise<boolean>
  /** One join on the members' user index, oldest membership first. */
  listOrganizationsByUserId(userId: string): Promise<AdapterOrganizationWithRole[]>
  /** One lookup on the unique (organization, user) index. */
  getOrganizationMember(organizationId: string, userId: string): Promise<AdapterOrganizationMember | null>
  listOrganizationMembers(organizationId: string): Promise<AdapterOrganizationMemberWithUser[]>
  /** One call of `authlib_organization_set_role`: the actor and the last owner checked under the organization's row lock. */
  updateOrganizationMemberRole(
    organizationId: string, userId: string, role: string, actor?: { userId: string; role: string },
  ): Promise<AdapterOrganizationMember | "last-owner" | null>
  /** One call of `authlib_organization_remove_member`, under the organization's row lock. */
  removeOrganizationMember(organizationId: string, userId: string, actor?: { userId: string; role: string }): Promise<AdapterOrganizationMember | "last-owner" | null>
  /**
   * One call of `authlib_organization_invite`: the member check, the limit and the replacement of a
   * pending invitation under the organization's row lock. Throws `OrganizationError`
   * `ORGANIZATION_UNKNOWN` when the organization no longer exists; `INVALID_INPUT` for a
   * `membershipLimit` below 1.
   */
  createOrganizationInvitation(
    invitation: Omit<AdapterOrganizationInvitation, "status" | "createdAt">,
    options: { now: Date; membershipLimit?: number },
  ): Promise<AdapterOrganizationInvitation | "member-exists" | "limit-reached">
  getOrganizationInvitation(id: string): Promise<AdapterOrganizationInvitation | null>
  /** One lookup on the unique token-hash index. */
  getOrganizationInvitationByTokenHash(tokenHash: string): Promise<AdapterOrganizationInvitation | null>
  listOrganizationInvitations(organizationId: string): Promise<AdapterOrganizationInvitation[]>
  /** One `UPDATE ... WHERE status = 'pending'`. */
  revokeOrganizationInvitation(id: string): Promise<boolean>
  /** One statement: the invitation used (`UPDATE ... WHERE status = 'pending'`, one of racing callers) and the membership inserted. */
  acceptOrganizationInvitation(params: { tokenHash: string; userId: string; email: string; now: Date }): Promise<AdapterOrganizationMember | null>
  updateAccount(account: Partial<AdapterAccount> & Pick<AdapterAccount, "provider" | "providerAccountId">, expected?: { refresh_token: string | null }): Promise<AdapterAccount | null>
}
