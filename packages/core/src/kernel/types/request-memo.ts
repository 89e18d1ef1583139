/**
 * What one request works out at most once and then reuses: slots of its context (`Context.memo`),
 * created empty by `contextOf` and filled, when first asked, by the module that owns each slot. A
 * route and the issuer asking the same question in one request get one answer for one look-up.
 */
import type { AdapterSession, AdapterUser } from "./adapters.js"
import type { Principal } from "./principal.js"

/**
 * A sign-in that a capability holds back (the first factor done, a second factor pending): its
 * random id and its user. Routes of other capabilities that help finish it (passkey options for a
 * second factor) ask for it through the kernel (`sign-in/held.ts`) without importing the holder.
 */
export interface HeldSignIn {
  readonly id: string
  readonly userId: string
}

/**
 * A second factor as a capability verified it: `kind` names the kind of credential in the terms of
 * a first factor's account type (a passkey is `"webauthn"`, a TOTP or backup code `"otp"`, which no
 * first factor is), `amr` its RFC 8176 methods.
 */
export interface VerifiedFactor {
  readonly kind: string
  readonly amr: readonly string[]
}

export interface RequestMemo {
  /** The sign-in a capability holds back for this request (`sign-in/held.ts`). */
  heldSignIn?: Promise<HeldSignIn | undefined>
  /** The request's principal (`sessions/principal.ts`). */
  principal?: Promise<Principal | null>
  /**
   * The stored session (and its user) a database session read of this request found live, or null
   * for none (`sessions/database-strategy.ts`): the principal is made from it when asked, with no
   * second look-up, and never made when nothing asks.
   */
  liveStoredSession?: { readonly session: AdapterSession; readonly user: AdapterUser } | null
  /** Second factors a capability verified during this request (`sign-in/amr.ts`). */
  verifiedFactors?: VerifiedFactor[]
}
