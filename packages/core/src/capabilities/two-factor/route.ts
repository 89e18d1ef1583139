/**
 * GET /two-factor: the page of a pending sign-in (or a redirect to `pages.twoFactor`; without a
 * pending sign-in, to the sign-in page): the code form and, when the user has a passkey, a passkey
 * button; for a sign-in held to enrol (`twoFactor.required`), the enrolment.
 * POST /two-factor (CSRF token and Origin checked by the kernel): `action` =
 * - `verify` + `code` during a pending sign-in: the session, answered like a sign-in callback;
 * - `verify-passkey` + `data` during a pending sign-in: the same, with a passkey (`passkey.ts`);
 * - `totp-enroll` (signed in, or a sign-in held to enrol): `{ secret, uri }`; `totp-confirm` +
 *   `code`: `{ enabled, backupCodes }` (held to enrol: the session too, see `enrol-pending.ts`);
 * - `disable` + `code`: `{ enabled: false }`; `backup-codes` + `code`: `{ backupCodes }`;
 * - `cancel`: the pending sign-in ended (its cookie cleared), back to the sign-in page.
 */
import { TwoFactorError } from "./errors.js"
import { routeUrl } from "../../kernel/http/urls.js"
import { formTargets, pageHeaders } from "../../kernel/pages/index.js"
import { csrfTokenFor } from "../../kernel/security/csrf.js"
import { principalOf, requirePrincipal } from "../../kernel/sessions/principal.js"
import type { AuthRequest, AuthResponse, Context, Cookie } from "../../kernel/types/http.js"
import { disableTwoFactor, enrollTotp, regenerateBackupCodes, twoFactorOptions, type TotpEnrollment } from "./manage.js"
import { confirmPending, currentEnrolment, enrolPending } from "./enrol-pending.js"
import { confirmForSession, freshEnrolling } from "./enrolment-gate.js"
import { renderTwoFactorPage } from "./page.js"
import { passkeyToFinish, verifyPasskey } from "./passkey.js"
import { verifyPendingCode } from "./verify.js"
import { stepUpAction } from "./step-up.js"
import { clearPending, readPending, type PendingTwoFactor } from "./pending.js"
import { answeringForms } from "./refusal.js"

/** What the page offers besides the code form: the enrolment of a sign-in held to enrol (and the cookie keeping a new secret), or the user's passkey (unless a passkey began the sign-in). */
async function pageExtras(req: AuthRequest, ctx: Context, pending: PendingTwoFactor): Promise<{ enrolment?: TotpEnrollment; passkey?: { optionsUrl: string; provider: string }; cookies?: Cookie[] }> {
  if (pending.enrol) return currentEnrolment(req, ctx, pending)
  const provider = await passkeyToFinish(ctx, pending)
  return provider ? { passkey: { optionsUrl: `${ctx.actionBase}/webauthn-options/${encodeURIComponent(provider.id)}`, provider: provider.id } } : {}
}

export async function twoFactorPage(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  twoFactorOptions(ctx)
  const { error, code } = req.query
  if (ctx.config.pages.twoFactor) return { redirect: routeUrl(ctx, "twoFactor", { error, code }) }
  const pending = await readPending(req, ctx)
  if (!pending) return { redirect: routeUrl(ctx, "signIn") }
  const { token, cookie } = await csrfTokenFor(req, ctx)
  const { cookies = [], ...extras } = await pageExtras(req, ctx, pending)
  const emailSignIn = ctx.config.providers.some((provider) => provider.type === "email")
  const html = renderTwoFactorPage({ actionUrl: `${ctx.actionBase}/two-factor`, csrfToken: token, ...(code ? { error: code } : {}), theme: ctx.config.theme, emailSignIn, ...extras })
  return { html, headers: pageHeaders(html, formTargets(ctx.origin, ctx.config.pages, ctx.origin)), cookies: cookie ? [cookie, ...cookies] : cookies }
}

function verify(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  twoFactorOptions(ctx)
  return answeringForms(req, ctx, () => verifyPendingCode(req, ctx, req.body.code))
}

export async function twoFactorAction(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const { action, code } = req.body
  if (action === "verify") return verify(req, ctx)
  if (action === "step-up") return stepUpAction(req, ctx)
  twoFactorOptions(ctx)
  // The way out of a pending sign-in: nothing of it was stored, so clearing its cookie ends it.
  if (action === "cancel") return { redirect: routeUrl(ctx, "signIn"), cookies: clearPending(req, ctx) }
  if (action === "verify-passkey") return verifyPasskey(req, ctx)
  // Enrolment acts for the signed-in user, else for a sign-in held to enrol.
  const enrolling = (action === "totp-enroll" || action === "totp-confirm") && !(await principalOf(req, ctx))
  if (enrolling && (await readPending(req, ctx))?.enrol) return action === "totp-enroll" ? enrolPending(req, ctx) : confirmPending(req, ctx)
  const signedIn = () => requirePrincipal(req, ctx, "Sign in to manage two-factor sign-in").then((p) => p.userId)
  if (action === "totp-enroll") return { json: await enrollTotp(ctx, (await freshEnrolling(req, ctx)).userId) }
  if (action === "totp-confirm") {
    const { cookies, ...confirmed } = await confirmForSession(req, ctx, code)
    return { json: confirmed, cookies }
  }
  if (action === "disable") return { json: await disableTwoFactor(ctx, await signedIn(), code) }
  if (action === "backup-codes") return { json: await regenerateBackupCodes(ctx, await signedIn(), code) }
  throw new TwoFactorError('"action" must be "verify", "verify-passkey", "step-up", "cancel", "totp-enroll", "totp-confirm", "disable" or "backup-codes"', { code: "ACTION_INVALID" })
}
