/**
 * GET /two-factor: the page of a pending sign-in (or a redirect to `pages.twoFactor`; without a
 * pending sign-in, to the sign-in page).
 * POST /two-factor (CSRF token and Origin checked by the kernel): `action` =
 * - `verify` + `code` during a pending sign-in: the session, answered like a sign-in callback;
 * - `totp-enroll` (signed in): `{ secret, uri }`; `totp-confirm` + `code`: `{ enabled, backupCodes }`;
 * - `disable` + `code`: `{ enabled: false }`; `backup-codes` + `code`: `{ backupCodes }`.
 */
import { RateLimited, TwoFactorError } from "../../kernel/errors/errors.js"
import { routeUrl } from "../../kernel/http/urls.js"
import { formTargets, pageHeaders } from "../../kernel/pages/index.js"
import { csrfTokenFor } from "../../kernel/security/csrf.js"
import { requirePrincipal } from "../../kernel/sessions/principal.js"
import { completeSignIn } from "../../kernel/sign-in/issue.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { confirmTotp, disableTwoFactor, enrollTotp, regenerateBackupCodes, twoFactorOptions } from "./actions.js"
import { checkCode, codeOf } from "./check-code.js"
import { renderTwoFactorPage } from "./page.js"
import { clearPending, readPending } from "./pending.js"
import { stepUpAction } from "./step-up.js"

export async function twoFactorPage(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  twoFactorOptions(ctx)
  const { error, code } = req.query
  if (ctx.config.pages.twoFactor) return { redirect: routeUrl(ctx, "twoFactor", { error, code }) }
  if (!(await readPending(req, ctx))) return { redirect: routeUrl(ctx, "signIn") }
  const { token, cookie } = await csrfTokenFor(req, ctx)
  const html = renderTwoFactorPage({ actionUrl: `${ctx.actionBase}/two-factor`, csrfToken: token, ...(code ? { error: code } : {}), theme: ctx.config.theme })
  return { html, headers: pageHeaders(html, formTargets(ctx.origin, ctx.config.pages, ctx.origin)), cookies: cookie ? [cookie] : [] }
}

/** A form posted by a person (not a script): a refusal goes back to the page, which says why. */
const fromForm = (req: AuthRequest) => (req.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded") && req.headers.get("x-auth-return-redirect") !== "1"

async function verify(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  twoFactorOptions(ctx)
  const pending = await readPending(req, ctx)
  try {
    if (!pending) throw new TwoFactorError("No sign-in is waiting for a second factor (or its 5 minutes are over)", { code: "SIGN_IN_MISSING" })
    await checkCode(ctx, pending.userId, codeOf(req.body.code), pending.id)
  } catch (err) {
    if (fromForm(req) && (err instanceof TwoFactorError || err instanceof RateLimited)) {
      ctx.config.logger.warn(err.type, err)
      if (err instanceof TwoFactorError && err.code === "SIGN_IN_MISSING") return { redirect: routeUrl(ctx, "signIn") }
      return { redirect: routeUrl(ctx, "twoFactor", { error: err.type, code: err.code }) }
    }
    throw err
  }
  const event = pending.event ? { user: pending.session.user, account: pending.session.account, isNewUser: pending.session.isNewUser } : undefined
  return completeSignIn(req, ctx, pending.session, pending.callbackUrl, clearPending(req, ctx), event)
}

export async function twoFactorAction(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const { action, code } = req.body
  if (action === "verify") return verify(req, ctx)
  if (action === "step-up") return stepUpAction(req, ctx)
  twoFactorOptions(ctx)
  const signedIn = () => requirePrincipal(req, ctx, "Sign in to manage two-factor sign-in").then((p) => p.userId)
  if (action === "totp-enroll") return { json: await enrollTotp(ctx, await signedIn()) }
  if (action === "totp-confirm") return { json: await confirmTotp(ctx, await signedIn(), code) }
  if (action === "disable") return { json: await disableTwoFactor(ctx, await signedIn(), code) }
  if (action === "backup-codes") return { json: await regenerateBackupCodes(ctx, await signedIn(), code) }
  throw new TwoFactorError('"action" must be "verify", "totp-enroll", "totp-confirm", "disable" or "backup-codes"', { code: "ACTION_INVALID" })
}
