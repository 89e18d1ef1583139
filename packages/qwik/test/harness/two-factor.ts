/**
 * Two-factor steps the binding's tests share: a page request of the signed-in Ada (after the
 * plugin's onRequest ran), and enabling TOTP for her with codes computed here (RFC 6238 on
 * node:crypto, `@authlib/e2e-kit/totp`).
 */
import { stepAt, totp } from "@authlib/e2e-kit/totp"
import { confirmTotpEnrollment, startTotpEnrollment } from "../../src/index.js"
import { ORIGIN } from "./config.js"
import { fakeEvent } from "./fake-event.js"
import { handle, signInThroughRoute, type TestAuth } from "./setup.js"

/** A page request of the signed-in Ada (a fresh password sign-in unless `cookie` is given). */
export async function signedInPage(auth: TestAuth, cookie?: string) {
  const ev = fakeEvent(`${ORIGIN}/account/`, { cookie: cookie ?? (await signInThroughRoute(auth)).cookie })
  await handle(auth, ev)
  return ev
}

/** Enables two factors for Ada: the page event (still signed in), the secret, the step its first code used, the backup codes. */
export async function enableTwoFactor(auth: TestAuth) {
  const ev = await signedInPage(auth)
  const { secret } = await startTotpEnrollment(ev)
  const step = stepAt()
  const { backupCodes } = await confirmTotpEnrollment(ev, { code: totp(secret, step) })
  return { ev, secret, step, backupCodes }
}
