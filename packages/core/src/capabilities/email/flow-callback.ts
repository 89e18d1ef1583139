/**
 * callback/:provider of an e-mail provider, in two steps:
 *
 * - GET (the link in the mail) only shows the confirm page. Mail scanners pre-fetch every link;
 *   a GET never consumes the token, so their visit leaves the link usable. It reads the token
 *   where the adapter can (`getVerificationToken`): a used or expired link is refused at once.
 * - POST (the page's button, CSRF checked by the route) consumes the token through
 *   `useVerificationToken`, which hands a token to exactly one caller. An unknown, used, expired or
 *   other-address token is a `Verification` error and nothing is issued.
 */
import { adapterMethods, type AdapterMethods } from "../../kernel/ports/ports.js"
import { Verification, type ErrorCode } from "../../kernel/errors/errors.js"
import type { AuthRequest } from "../../kernel/types/http.js"
import { formTargets, pageHeaders, renderEmailConfirmPage } from "../../kernel/pages/index.js"
import type { EmailConfig } from "../../kernel/types/providers.js"
import { csrfTokenFor } from "../../kernel/security/csrf.js"
import type { Adapter } from "../../kernel/types/adapters.js"
import type { Account } from "../../kernel/types/config.js"
import type { FlowContext, FlowOutcome } from "../../kernel/types/sign-in.js"
import { findEmailUser, type EmailUserLookup } from "./email-user.js"
import { identifierOf } from "./normalize-identifier.js"
import { peekToken, tokenSecrets } from "./token.js"
import { useLink } from "./use-link.js"

/** What an e-mail sign-in carries of its own (`SignInResult.own`): who holds the address, as the flow found them. */
export interface EmailSignIn {
  readonly lookup?: EmailUserLookup
}

/**
 * The confirm page gets the headers of every built-in page (`pageHeaders`): it must not be framed
 * (a framed button is a click away from login CSRF), and its URL holds the token, so the referrer
 * stays on this site.
 */
const confirmHeaders = (html: string, ctx: FlowContext<EmailConfig>) =>
  pageHeaders(html, formTargets(ctx.origin, ctx.config.pages, ctx.callbackUrl))

function invalidLink(ctx: FlowContext<EmailConfig>, code: ErrorCode<"Verification">, message: string): Verification {
  return new Verification(message, { code, cause: { provider: ctx.provider.id } })
}

/** The link's address, normalised as when the link was made; any refusal is a bad link. */
function linkIdentifier(ctx: FlowContext<EmailConfig>, email: unknown): string {
  try {
    return identifierOf(ctx.provider, email)
  } catch {
    throw invalidLink(ctx, "EMAIL_INVALID", 'The sign-in link has no valid "email"')
  }
}

function linkToken(ctx: FlowContext<EmailConfig>, token: unknown): string {
  if (typeof token !== "string" || token === "") throw invalidLink(ctx, "TOKEN_MISSING", 'The sign-in link has no "token"')
  return token
}

/**
 * A link that can no longer sign in says so when opened, not after the user confirms: the token is
 * read without being used up (adapters with `getVerificationToken`; others show the page).
 */
async function assertStillValid(ctx: FlowContext<EmailConfig>, email: string, token: string): Promise<void> {
  const adapter = ctx.config.adapter
  const record = adapter ? await peekToken(adapter, tokenSecrets(ctx), email, token) : undefined
  if (record === undefined) return
  if (!record || record.identifier !== email) throw invalidLink(ctx, "TOKEN_INVALID", "The sign-in link is unknown, was already used, or belongs to another address")
  if (new Date(record.expires).getTime() <= Date.now()) throw invalidLink(ctx, "TOKEN_EXPIRED", "The sign-in link has expired")
}

async function confirmPage(req: AuthRequest, ctx: FlowContext<EmailConfig>): Promise<FlowOutcome> {
  const email = linkIdentifier(ctx, req.query.email)
  const token = linkToken(ctx, req.query.token)
  await assertStillValid(ctx, email, token)
  const csrf = await csrfTokenFor(req, ctx)
  const html = renderEmailConfirmPage({
    actionUrl: `${ctx.actionBase}/callback/${encodeURIComponent(ctx.provider.id)}`,
    csrfToken: csrf.token,
    fields: { token, email, callbackUrl: ctx.callbackUrl },
    email,
    theme: ctx.config.theme,
  })
  return { response: { html, headers: confirmHeaders(html, ctx), cookies: csrf.cookie ? [csrf.cookie] : [] } }
}

async function complete(req: AuthRequest, ctx: FlowContext<EmailConfig>): Promise<FlowOutcome> {
  const email = linkIdentifier(ctx, req.body.email)
  const token = linkToken(ctx, req.body.token)
  const account = { provider: ctx.provider.id, providerAccountId: email, type: "email" } as const
  const used = await useLink(req, ctx, email, token, account)
  if (!used) throw invalidLink(ctx, "TOKEN_INVALID", "The sign-in link is unknown, was already used, or belongs to another address")
  const { record } = used
  // The adapter matched on both; an adapter that ignored the identifier must not widen the link.
  if (record.identifier !== email) throw invalidLink(ctx, "IDENTIFIER_MISMATCH", "The sign-in link belongs to another address")
  // A returning user's session was stored with the link's use, which checked the expiry (`use-link.ts`).
  if (used.issued) return { signIn: { user: { ...used.issued.user }, account, own: { lookup: { user: used.issued.user, accountOwner: used.issued.user } } satisfies EmailSignIn, issued: used.issued } }
  if (new Date(record.expires).getTime() <= Date.now()) throw invalidLink(ctx, "TOKEN_EXPIRED", "The sign-in link has expired")
  const emailUser = await findEmailUser(adapterMethods(ctx.config.adapter, ["getUserByAccount", "getUserByEmail"], "E-mail sign-in"), account, email, used.owner)
  // A copy for the `signIn` callback: what it does to its argument does not reach the stored user.
  return { signIn: { user: emailUser.user ? { ...emailUser.user } : { email }, account, own: { lookup: emailUser } satisfies EmailSignIn } }
}

/** GET shows the confirm page; POST completes the sign-in. */
export function emailCallback(req: AuthRequest, ctx: FlowContext<EmailConfig>): Promise<FlowOutcome> {
  return req.method === "GET" ? confirmPage(req, ctx) : complete(req, ctx)
}
