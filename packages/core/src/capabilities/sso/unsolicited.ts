/**
 * IdP-initiated sign-in (an unsolicited Response: no `InResponseTo`), accepted only on a connection
 * that enables it (`allowIdpInitiated`). With no request of this browser to answer, what keeps it
 * single use is the assertion's own ID: recorded in the verification-token store, keyed by the
 * connection and the assertion ID (its hash), until the assertion expires, in one conditional write
 * (`claimVerificationToken`), so a replay to this or another instance sharing the store finds it
 * there (`ASSERTION_REPLAYED`). Its `RelayState`, chosen by whoever posted the form, is a
 * destination only as the `redirect` callback allows (default: same origin), never as it is.
 */
import { InvalidCallbackUrl } from "../../kernel/errors/errors.js"
import { resolveCallbackUrl } from "../../kernel/http/callback-url.js"
import { sha256 } from "../../kernel/security/random.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import { ssoStore } from "./store.js"

/**
 * The engine accepts an assertion up to its clock skew (60 s by default, at most 180 s) after its
 * `NotOnOrAfter`: the record outlives that, so it cannot expire while the assertion still verifies.
 */
const RECORD_MARGIN_MS = 180_000
/** A RelayState longer than this is no URL of the app's (SAML itself caps it at 80 bytes). */
const MAX_RELAY_STATE = 2048

/** Records the unsolicited assertion `assertionId` of `connectionId`: true for its first use only. */
export async function claimAssertion(ctx: Context, connectionId: string, assertion: { assertionId: string; notOnOrAfter: Date }): Promise<boolean> {
  const expires = new Date(assertion.notOnOrAfter.getTime() + RECORD_MARGIN_MS)
  return ssoStore(ctx).claimVerificationToken({ identifier: `authlib:sso-assertion:${connectionId}`, token: sha256(assertion.assertionId), expires })
}

/** Where an unsolicited sign-in lands: its `RelayState` through the `redirect` callback, else the app's origin. */
export async function relayStateTarget(req: AuthRequest, ctx: Context): Promise<string> {
  const relayState = req.body.RelayState
  const url = typeof relayState === "string" && relayState.length <= MAX_RELAY_STATE ? relayState : ""
  try {
    // The kernel's own resolution, as for a `callbackUrl` field: the `redirect` callback decides.
    return await resolveCallbackUrl({ body: { callbackUrl: url }, query: {}, cookies: req.cookies }, ctx, false)
  } catch (err) {
    if (err instanceof InvalidCallbackUrl) return ctx.origin
    throw err
  }
}
