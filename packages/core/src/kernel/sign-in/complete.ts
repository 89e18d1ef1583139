/**
 * The end of every sign-in: the issuer issues the session, the `signIn` event fires, the sign-in
 * type does what it does once signed in (`afterSignedIn`), and the user goes to the callback URL
 * (or `pages.newUser`).
 */
import { pageUrl } from "../http/urls.js"
import { issue } from "../sessions/issuer.js"
import type { AuthRequest, AuthResponse, Context, Cookie } from "../types/http.js"
import type { NewSession, SignInResult } from "../types/sign-in.js"
import { userRules } from "./link-user.js"
import { emitEvent } from "../user-code/events.js"
import { withVerifiedFactors } from "./amr.js"
import type { SignInEventInput } from "./session-of.js"

/**
 * Issues `session` and answers the redirect. Also where a sign-in held back by a second factor ends
 * once that factor is verified: the factors a capability recorded as verified in this request
 * (`recordVerifiedFactor`) join the first factor's, with `mfa` and the time of now.
 */
export async function completeSignIn(
  req: AuthRequest,
  ctx: Context,
  session: NewSession,
  callbackUrl: string,
  flowCookies: readonly Cookie[],
  event: SignInEventInput | undefined,
): Promise<AuthResponse> {
  const authentication = withVerifiedFactors(ctx, session.account.type, session.authentication)
  const cookies = await issue(req, ctx, { kind: "sign-in", session: authentication ? { ...session, authentication } : session })
  return signedIn(ctx, session.isNewUser, callbackUrl, flowCookies, cookies, event)
}

/**
 * `res`, the answer of a sign-in whose session is issued for `userId`, with what its sign-in type
 * does then (`UserRules.signedIn`) and the cookies that adds. Never asked for a held sign-in: a
 * held sign-in writes nothing, so its type's part waits for the hold to end (`hold.ts`).
 */
export async function afterSignedIn(ctx: Context, result: SignInResult, userId: string | undefined, res: AuthResponse): Promise<AuthResponse> {
  const rule = userRules(ctx.config.registry, result).signedIn
  if (!rule || userId === undefined) return res
  const cookies = await rule(ctx, userId, result.own)
  return cookies?.length ? { ...res, cookies: [...(res.cookies ?? []), ...cookies] } : res
}

/** The `signIn` event, then the redirect that follows sign-in, with every cookie to set. */
export async function signedIn(ctx: Context, isNewUser: boolean, callbackUrl: string, flowCookies: readonly Cookie[], cookies: Cookie[], event: SignInEventInput | undefined): Promise<AuthResponse> {
  if (event) await emitEvent(ctx, "signIn", event)
  const { newUser } = ctx.config.pages
  const redirect = isNewUser && newUser ? pageUrl(ctx, newUser, { callbackUrl }) : callbackUrl
  return { redirect, cookies: flowCookies.length ? [...flowCookies, ...cookies] : cookies }
}
