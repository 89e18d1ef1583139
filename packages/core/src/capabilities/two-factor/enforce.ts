/**
 * The second factor, enforced in one place: the kernel asks this hook after every first factor
 * (credentials, e-mail link, OAuth/OIDC, passkey) and before anything is written or any session
 * exists. A user with two factors enabled gets a pending sign-in and a redirect to the two-factor
 * step instead of a session (a passkey verified with user verification counts as both factors
 * unless configured otherwise). A user without two factors whom `twoFactor.required` names is held
 * too, to enrol first (a new user as well: created when the enrolment completes). A credentials
 * sign-in that carries the code already is checked here and not held (`code-in-request.ts`).
 */
import { routeUrl } from "../../kernel/http/urls.js"
import { hasSecondFactor } from "../../kernel/sessions/freshness.js"
import { principalOf } from "../../kernel/sessions/principal.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import type { PendingSignIn } from "../../kernel/types/sign-in.js"
import { checkCodeInRequest, codeInRequest } from "./code-in-request.js"
import { holdPending } from "./pending.js"
import { twoFactorRequired } from "./required.js"
import { twoFactorStore } from "./store.js"

export async function holdForSecondFactor(req: AuthRequest, ctx: Context, pending: PendingSignIn): Promise<AuthResponse | undefined> {
  const options = ctx.config.twoFactor
  if (!options) return undefined
  // Two factors in one step (a passkey that verified the person), where they count as two.
  if (pending.factors === 2) return undefined
  const { userId } = pending
  // A user who is not stored cannot have, or enrol, a second factor (credentials without a user id).
  if (userId === undefined && !pending.resume.stores) return undefined
  const record = userId === undefined ? null : await twoFactorStore(ctx).getTwoFactor(userId)
  // The code sent with the password: checked now, and a right one lets the sign-in through.
  const code = record?.enabled ? codeInRequest(req, pending) : undefined
  if (code !== undefined && userId !== undefined) return checkCodeInRequest(ctx, pending, userId, code).then(() => undefined)
  if (userId !== undefined) {
    // The same user, signed in with both factors, adding a way in (a passkey, a linked account): the
    // change itself is guarded by freshness, so no second hold.
    const current = await principalOf(req, ctx)
    if (current?.userId === userId && hasSecondFactor(ctx, current)) return undefined
  }
  // Without two factors, only a user the `required` policy names is held: to enrol.
  const enrol = !record?.enabled
  if (enrol && !(await twoFactorRequired(ctx, pending.session.user))) return undefined
  const held = await holdPending(req, ctx, {
    ...(userId !== undefined ? { userId } : {}),
    resume: pending.resume,
    callbackUrl: pending.callbackUrl,
    event: ctx.config.events.signIn !== undefined,
    ...(enrol ? { enrol: true } : {}),
    ...(record?.enabled && pending.session.account.type === "email" ? { emailProvenAt: record.failedAttempts } : {}),
  })
  return { redirect: routeUrl(ctx, "twoFactor"), cookies: [...pending.cookies, ...held] }
}
