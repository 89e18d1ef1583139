/**
 * The use of a presented sign-in link on completion. Where nothing must see the user before its
 * session exists (`mayIssueWithFirstFactor`: no `signIn` callback, no capability that may hold the
 * sign-in back) and the strategy and adapter can (database sessions,
 * `useVerificationTokenAndCreateSession`), a returning, verified user's session is stored in the
 * same adapter call that uses the link: one statement for the whole completion. Otherwise, and
 * whenever that call stored no session (a new address, an unverified user), the link is used as
 * before (`consumeTokenForAccount`) and the usual path stores the user, then the session.
 */
import { mayIssueWithFirstFactor } from "../../kernel/sign-in/issue.js"
import { nowSeconds } from "../../kernel/sessions/lifetime.js"
import { firstFactorAmr } from "../../kernel/sign-in/amr.js"
import { issue } from "../../kernel/sessions/issuer.js"
import type { AdapterAccount, AdapterUser, VerificationToken } from "../../kernel/types/adapters.js"
import type { Cookie } from "../../kernel/types/http.js"
import type { AuthRequest } from "../../kernel/types/http.js"
import type { EmailConfig } from "../../kernel/types/providers.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"
import { consumeTokenForAccount, hashToken, MAX_TOKEN_LENGTH, tokenSecrets } from "./token.js"

/** A link this caller used: its stored record, the e-mail account's owner when read, and the session when stored with it. */
export interface UsedLink {
  record: VerificationToken
  owner?: AdapterUser | null
  issued?: { user: AdapterUser; cookies: Cookie[] }
}

type EmailAccount = Pick<AdapterAccount, "provider" | "providerAccountId" | "type">

/**
 * Uses the link of `identifier` and `token` (tried with each secret, newest first); `null` when
 * this caller did not receive it (unknown, used, or used by a concurrent request).
 */
export async function useLink(req: AuthRequest, ctx: FlowContext<EmailConfig>, identifier: string, token: string, account: EmailAccount): Promise<UsedLink | null> {
  if (!mayIssueWithFirstFactor(ctx) || token === "" || token.length > MAX_TOKEN_LENGTH) return consumeTokenForAccount(ctx, identifier, token, account)
  const authentication = { time: nowSeconds(), amr: firstFactorAmr(ctx, { user: { email: identifier }, account }) }
  for (const secret of tokenSecrets(ctx)) {
    const used = await issue(req, ctx, { kind: "link", link: { identifier, token: hashToken(token, secret) }, account, authentication })
    if (used === undefined) return consumeTokenForAccount(ctx, identifier, token, account)
    if (used) return { record: used.token, owner: used.owner, ...(used.issued ? { issued: used.issued } : {}) }
  }
  return null
}
