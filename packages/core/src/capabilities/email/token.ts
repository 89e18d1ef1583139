/**
 * The one-time token of a sign-in link, and how it is kept. The link carries the token; the adapter
 * stores only `hex(SHA-256(token + secret))`, so a leaked verification-token table cannot be turned
 * into working links. This is the construction `@auth/core` uses (hex digest of token then secret):
 * links issued just before a migration between the two keep working.
 */
import { port, type PortMethods } from "../../kernel/ports/ports.js"
import type { Adapter, AdapterAccount, AdapterUser, VerificationToken } from "../../kernel/types/adapters.js"
import { Configuration } from "../../kernel/errors/errors.js"
import { logError } from "../../kernel/errors/logger.js"
import type { EmailConfig } from "../../kernel/types/providers.js"
import { randomToken, sha256Hex } from "../../kernel/security/random.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"
import { maxLiveTokens } from "./rate-limits.js"

/** Ten minutes, as OWASP ASVS 5.0 asks of one-time links. */
export const DEFAULT_EMAIL_MAX_AGE = 10 * 60
/** Longer presented tokens are refused before hashing: no generator makes them. */
export const MAX_TOKEN_LENGTH = 512

/**
 * `hex(SHA-256(token + secret))`, the form in which tokens reach the adapter. Synchronous, with the
 * SHA-256 that hashes session tokens (`crypto.subtle.digest` would add a thread-pool round trip);
 * the digest of the same UTF-8 bytes, so tokens stored before still match.
 */
export function hashToken(token: string, secret: string): string {
  return sha256Hex(`${token}${secret}`)
}

/** The secrets a token may be hashed with: the provider's own, else the config's (newest first). */
export function tokenSecrets(ctx: FlowContext<EmailConfig>): readonly string[] {
  const own = ctx.provider.secret
  return typeof own === "string" && own !== "" ? [own] : ctx.config.secret
}

/** Seconds a link stays valid: the provider's `maxAge` (checked positive at start-up), else 600. */
export function linkMaxAge(provider: EmailConfig): number {
  return provider.maxAge ?? DEFAULT_EMAIL_MAX_AGE
}

/** A new token: the provider's `generateVerificationToken`, else 256 random bits as base64url. */
export async function newToken(provider: EmailConfig): Promise<string> {
  if (!provider.generateVerificationToken) return randomToken(32)
  const token = await provider.generateVerificationToken()
  if (typeof token !== "string" || token === "" || token.length > MAX_TOKEN_LENGTH)
    throw new Configuration(`"generateVerificationToken" of provider "${provider.id}" must return a non-empty string of at most ${MAX_TOKEN_LENGTH} characters`, {
      code: "TOKEN_GENERATOR_INVALID",
      cause: { provider: provider.id },
    })
  return token
}

/** The single-use records' port (checked at start-up for every e-mail provider). */
export type EmailTokens = PortMethods<"verificationTokens">
export const emailTokens = (ctx: Pick<FlowContext<EmailConfig>, "config">): EmailTokens => port(ctx.config, "verificationTokens", "E-mail sign-in")

/** Stores the hashed token; returns the stored record's key, for removing it again. */
export async function storeToken(ctx: FlowContext<EmailConfig>, identifier: string, token: string): Promise<{ identifier: string; token: string; expires: Date }> {
  const record = {
    identifier,
    token: hashToken(token, tokenSecrets(ctx)[0]!),
    expires: new Date(Date.now() + linkMaxAge(ctx.provider) * 1000),
  }
  await emailTokens(ctx).createVerificationToken(record)
  return record
}

/**
 * Retires the address's oldest live links beyond `rateLimit.email.maxLiveTokens`, when the adapter
 * can (`retireVerificationTokens`). The new link is already stored and sent on regardless: a
 * failure here is logged, never shown.
 */
export async function retireOldTokens(ctx: FlowContext<EmailConfig>, identifier: string): Promise<void> {
  const keep = maxLiveTokens(ctx.config)
  const retire = ctx.config.adapter?.retireVerificationTokens
  if (keep === undefined || !retire) return
  try {
    await retire(identifier, keep)
  } catch (err) {
    logError(ctx.config.logger, err)
  }
}

/**
 * Consumes the stored token of a presented link: tries each secret's hash until the adapter hands
 * a record over. The adapter guarantees that under concurrent calls only one caller receives it.
 */
export async function consumeToken(tokens: EmailTokens, secrets: readonly string[], identifier: string, token: string): Promise<VerificationToken | null> {
  if (token === "" || token.length > MAX_TOKEN_LENGTH) return null
  for (const secret of secrets) {
    const record = await tokens.useVerificationToken({ identifier, token: hashToken(token, secret) })
    if (record) return record
  }
  return null
}

/**
 * `consumeToken` with the request's secrets, and the owner of `account` read in the same adapter
 * call where the adapter can (`useVerificationTokenForAccount`: one round trip instead of two).
 * `owner` is absent when the adapter could not say (the caller looks the owner up itself).
 */
export async function consumeTokenForAccount(
  ctx: FlowContext<EmailConfig>,
  identifier: string,
  token: string,
  account: Pick<AdapterAccount, "provider" | "providerAccountId">,
): Promise<{ record: VerificationToken; owner?: AdapterUser | null } | null> {
  const tokens = emailTokens(ctx)
  const use = ctx.config.adapter?.useVerificationTokenForAccount
  if (!use) {
    const record = await consumeToken(tokens, tokenSecrets(ctx), identifier, token)
    return record && { record }
  }
  if (token === "" || token.length > MAX_TOKEN_LENGTH) return null
  for (const secret of tokenSecrets(ctx)) {
    const used = await use({ identifier, token: hashToken(token, secret) }, account)
    if (used) return { record: used.token, owner: used.owner }
  }
  return null
}

/**
 * The stored token of a presented link, read without using it up, when the adapter can
 * (`getVerificationToken`); `undefined` when it cannot say.
 */
export async function peekToken(adapter: Adapter, secrets: readonly string[], identifier: string, token: string): Promise<VerificationToken | null | undefined> {
  const read = adapter.getVerificationToken
  if (!read) return undefined
  if (token === "" || token.length > MAX_TOKEN_LENGTH) return null
  for (const secret of secrets) {
    const record = await read({ identifier, token: hashToken(token, secret) })
    if (record) return record
  }
  return null
}

/** Removes a stored token whose mail never left. A failure here is reported, never swallowed. */
export async function discardToken(tokens: EmailTokens, stored: { identifier: string; token: string }): Promise<void> {
  await tokens.useVerificationToken({ identifier: stored.identifier, token: stored.token })
}
