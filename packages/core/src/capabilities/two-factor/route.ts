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
import type { RouteHandler, SubActions } from "../../kernel/types/capability.js"

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

/** Enrolment acts for the signed-in user, else for a sign-in held to enrol: that one, when there is one. */
async function enrollingHeld(req: AuthRequest, ctx: Context): Promise<boolean> {
  return !(await principalOf(req, ctx)) && (await readPending(req, ctx))?.enrol === true
}

const signedIn = (req: AuthRequest, ctx: Context) => requirePrincipal(req, ctx, "Sign in to manage two-factor sign-in").then((p) => p.userId)

/** The handlers of POST /two-factor that need the option, after asking for it (`TWO_FACTOR_OFF` without it). */
const withOption = (handler: RouteHandler): RouteHandler => (req, ctx) => {
  twoFactorOptions(ctx)
  return handler(req, ctx)
}

/** POST /two-factor, by `action`. */
export const twoFactorActions: SubActions = {
  handlers: {
    verify: (req, ctx) => verify(req, ctx),
    "step-up": (req, ctx) => stepUpAction(req, ctx),
    // The way out of a pending sign-in: nothing of it was stored, so clearing its cookie ends it.
    cancel: withOption(async (req, ctx) => ({ redirect: routeUrl(ctx, "signIn"), cookies: clearPending(req, ctx) })),
    "verify-passkey": withOption((req, ctx) => verifyPasskey(req, ctx)),
    "totp-enroll": withOption(async (req, ctx) => {
      if (await enrollingHeld(req, ctx)) return enrolPending(req, ctx)
      return { json: await enrollTotp(ctx, (await freshEnrolling(req, ctx)).userId) }
    }),
    "totp-confirm": withOption(async (req, ctx) => {
      if (await enrollingHeld(req, ctx)) return confirmPending(req, ctx)
      const { cookies, ...confirmed } = await confirmForSession(req, ctx, req.body.code)
      return { json: confirmed, cookies }
    }),
    disable: withOption(async (req, ctx) => ({ json: await disableTwoFactor(ctx, await signedIn(req, ctx), req.body.code) })),
    "backup-codes": withOption(async (req, ctx) => ({ json: await regenerateBackupCodes(ctx, await signedIn(req, ctx), req.body.code) })),
  },
  refuse: (_given, ctx) => {
    twoFactorOptions(ctx)
    return new TwoFactorError('"action" must be "verify", "verify-passkey", "step-up", "cancel", "totp-enroll", "totp-confirm", "disable" or "backup-codes"', { code: "ACTION_INVALID" })
  },
}
