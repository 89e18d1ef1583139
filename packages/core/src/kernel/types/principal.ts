/**
 * Who a request acts for, once the strategy has made every check it has (`sessions/principal.ts`).
 * The only way a privileged path learns the current user. A type-only module, so the request's
 * context (`Context.memo`) can hold one without importing the session strategies.
 */
export interface Principal {
  readonly userId: string
  /** The stored key (hashed token) of the request's session where sessions are stored (database strategy), else null. */
  readonly storedSessionKey: string | null
  /**
   * When the user last authenticated for this session (seconds since the epoch), or null when the
   * session does not say (issued before it was recorded, or an adapter that keeps no session metadata).
   */
  readonly authTime: number | null
  /** How, in RFC 8176 values (`"mfa"` after two factors); empty when unknown. */
  readonly amr: readonly string[]
}
