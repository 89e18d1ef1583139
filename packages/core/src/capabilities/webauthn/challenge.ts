/**
 * The challenge of one passkey ceremony. It travels in an encrypted cookie bound to the provider
 * and the action (`register` or `authenticate`) that expires with the ceremony (5 minutes by
 * default), and its SHA-256 is stored as a verification token that the callback consumes with
 * `useVerificationToken`: an adapter hands a token to exactly one caller, so a challenge is
 * answered at most once, even when a cookie is copied or two instances race.
 */
import { passkeyStore } from "./store.js"
import { decode, encode } from "@authlib/jwt"
import { expireCookie, type Cookie } from "../../kernel/cookies/serialize.js"
import type { ErrorCode } from "../../kernel/errors/errors.js"
import { WebAuthnVerificationError } from "./errors.js"
import type { AuthRequest } from "../../kernel/types/http.js"
import type { AdapterAuthenticator } from "../../kernel/types/adapters.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"
import { sha256 } from "../../kernel/security/random.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"

/** Seconds a challenge lives by default: the ceremony's timeout. */
export const DEFAULT_CHALLENGE_MAX_AGE = 300

export type WebAuthnAction = "register" | "authenticate"

/** What the options route remembers for the callback. */
export interface Challenge {
  challenge: string
  provider: string
  action: WebAuthnAction
  /** register: the signed-in user adding a passkey; authenticate: the user the options named. */
  userId?: string
  /** register of a new account: the display name the passkey was created with. */
  name?: string
  /** authenticate for a held sign-in (a second factor): its id; only that sign-in may answer it. */
  heldSignIn?: string
}

const refuse = (code: ErrorCode<"WebAuthnVerificationError">, message: string, provider: string) =>
  new WebAuthnVerificationError(message, { code, cause: { provider } })

export const challengeMaxAge = (provider: WebAuthnConfig) => provider.challengeMaxAge ?? DEFAULT_CHALLENGE_MAX_AGE

/**
 * The single-use record's identifier: per user for a signed-in user's ceremony, one per provider for
 * visitors (the sign-in form, autofill). `:` never occurs in a normalised e-mail address.
 */
const identifierOf = (provider: string, userId: string | undefined) =>
  userId === undefined ? `webauthn-challenge:${provider}` : `webauthn-challenge:${provider}:user:${userId}`

/** Pending challenges kept per signed-in user, and for all visitors of a provider together. */
export const PENDING_CHALLENGES = { perUser: 5, visitors: 10_000 } as const
/** Visitors' records are bounded at most this often per process (the bound scans up to `visitors` rows). */
const VISITOR_SWEEP_INTERVAL_MS = 10_000
const lastVisitorSweep = new WeakMap<object, Map<string, number>>()

/**
 * Bounds the challenge records of `identifier` with the adapter's optional `retireVerificationTokens`
 * (oldest first, so expired ones go first): a flood of options requests from many networks cannot
 * grow the table without end, and a user's own requests keep only their newest few. A failure is
 * logged: the ceremony already has its record.
 */
async function boundPending(ctx: FlowContext<WebAuthnConfig>, identifier: string, signedIn: boolean): Promise<void> {
  const retire = ctx.config.adapter?.retireVerificationTokens
  if (!retire) return
  if (!signedIn) {
    // Per configuration: each app (and each test) bounds its own records.
    let swept = lastVisitorSweep.get(ctx.config)
    if (!swept) lastVisitorSweep.set(ctx.config, (swept = new Map()))
    const now = Date.now()
    if (now - (swept.get(identifier) ?? 0) < VISITOR_SWEEP_INTERVAL_MS) return
    swept.set(identifier, now)
  }
  try {
    await retire(identifier, signedIn ? PENDING_CHALLENGES.perUser : PENDING_CHALLENGES.visitors)
  } catch (err) {
    ctx.config.logger.warn("webauthn-challenge-sweep-failed", err)
  }
}

/** Stores the challenge's single-use record and returns its cookie. */
export async function issueChallenge(ctx: FlowContext<WebAuthnConfig>, challenge: Challenge): Promise<Cookie> {
  const maxAge = challengeMaxAge(ctx.provider)
  const expires = new Date(Date.now() + maxAge * 1000)
  const identifier = identifierOf(challenge.provider, challenge.action === "register" ? challenge.userId : undefined)
  await passkeyStore(ctx).createVerificationToken({ identifier, token: sha256(challenge.challenge), expires })
  await boundPending(ctx, identifier, identifier !== identifierOf(challenge.provider, undefined))
  const { name, options } = ctx.cookies.webauthnChallenge
  const value = await encode({ token: { ...challenge }, secret: ctx.config.secret as string[], salt: name, maxAge })
  return { name, value, options: { ...options, maxAge, expires } }
}

async function open(req: AuthRequest, ctx: FlowContext<WebAuthnConfig>): Promise<Partial<Challenge>> {
  const { name } = ctx.cookies.webauthnChallenge
  const sealed = req.cookies[name]
  if (!sealed) throw refuse("CHALLENGE_MISSING", "No passkey challenge: request the options first (it may have expired)", ctx.provider.id)
  try {
    const payload = await decode({ token: sealed, secret: ctx.config.secret as string[], salt: name })
    if (payload) return payload as Partial<Challenge>
  } catch (err) {
    const expired = (err as { code?: unknown }).code === "TOKEN_EXPIRED"
    throw new WebAuthnVerificationError(expired ? "The passkey challenge has expired" : "The passkey challenge cookie is invalid", {
      code: expired ? "CHALLENGE_EXPIRED" : "CHALLENGE_INVALID",
      cause: { provider: ctx.provider.id, err: err as Error },
    })
  }
  throw refuse("CHALLENGE_INVALID", "The passkey challenge cookie is invalid", ctx.provider.id)
}

/**
 * The request's challenge for `action`, consumed: its record is used up and the returned cookie
 * clears it. Refused when missing, expired, tampered, minted by another provider or for the other
 * action, or already answered.
 */
export async function consumeChallenge(req: AuthRequest, ctx: FlowContext<WebAuthnConfig>, action: WebAuthnAction, credentialID?: string): Promise<{ challenge: Challenge; cookie: Cookie; authenticator?: AdapterAuthenticator | null }> {
  const payload = await open(req, ctx)
  const provider = ctx.provider.id
  if (typeof payload.challenge !== "string" || payload.challenge === "") throw refuse("CHALLENGE_INVALID", "The passkey challenge cookie is invalid", provider)
  if (payload.provider !== provider) throw refuse("CHALLENGE_PROVIDER_MISMATCH", "The passkey challenge was issued for another provider", provider)
  if (payload.action !== action) throw refuse("CHALLENGE_ACTION_MISMATCH", `The passkey challenge was issued for "${String(payload.action)}", not "${action}"`, provider)
  const userId = action === "register" && typeof payload.userId === "string" ? payload.userId : undefined
  const record = { identifier: identifierOf(provider, userId), token: sha256(payload.challenge) }
  // Signing in with a known credential id: the record used and the passkey read in one round trip where the adapter can.
  const both = credentialID !== undefined && ctx.config.adapter?.useVerificationTokenAndGetAuthenticator
  const answer = both ? await both(record, credentialID) : { token: await passkeyStore(ctx).useVerificationToken(record), authenticator: undefined }
  const used = answer.token
  if (!used) throw refuse("CHALLENGE_USED", "The passkey challenge was already answered", provider)
  // The record's expiry is exact (the cookie's allows for clock skew between instances).
  if (new Date(used.expires).getTime() <= Date.now()) throw refuse("CHALLENGE_EXPIRED", "The passkey challenge has expired", provider)
  const { name, options } = ctx.cookies.webauthnChallenge
  const cookie = expireCookie(name, options)
  return answer.authenticator === undefined ? { challenge: payload as Challenge, cookie } : { challenge: payload as Challenge, cookie, authenticator: answer.authenticator }
}
