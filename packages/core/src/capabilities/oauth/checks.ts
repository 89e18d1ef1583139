/**
 * PKCE, state and nonce check values, kept between the authorization redirect and the callback in
 * short-lived encrypted cookies. Each cookie is encrypted with the cookie name as salt and names the
 * provider that minted it: a value minted for provider A is refused on provider B's callback, so
 * one provider can never complete a flow another one started.
 */
import { decode, encode } from "@authlib/jwt"
import { expireCookie, type Cookie } from "../../kernel/cookies/serialize.js"
import { InvalidCheck, type CheckName } from "../../kernel/errors/errors.js"
import type { CookieOption, CookiesOptions } from "../../kernel/types/config.js"

/** Seconds a check cookie (and the flow it protects) stays valid. */
export const CHECK_MAX_AGE = 15 * 60


/** What the check cookies need from the resolved configuration. */
export interface CheckContext {
  providerId: string
  secret: string | string[]
  cookies: Pick<CookiesOptions, "pkceCodeVerifier" | "state" | "nonce">
}

interface CheckPayload extends Record<string, unknown> {
  value: string
  provider: string
}

const cookieKey = { pkce: "pkceCodeVerifier", state: "state", nonce: "nonce" } as const

function cookieOf(ctx: CheckContext, check: CheckName): CookieOption {
  return ctx.cookies[cookieKey[check]]
}

/** Encrypts a check value bound to the provider into its cookie. */
export async function createCheckCookie(ctx: CheckContext, check: CheckName, value: string): Promise<Cookie> {
  const { name, options } = cookieOf(ctx, check)
  const token: CheckPayload = { value, provider: ctx.providerId }
  const sealed = await encode({ token, secret: ctx.secret, salt: name, maxAge: CHECK_MAX_AGE })
  const expires = new Date(Date.now() + CHECK_MAX_AGE * 1000)
  return { name, value: sealed, options: { ...options, maxAge: CHECK_MAX_AGE, expires } }
}

function invalid(check: CheckName, code: "COOKIE_MISSING" | "COOKIE_INVALID" | "PROVIDER_MISMATCH", providerId: string, err?: Error): InvalidCheck {
  return new InvalidCheck(`${check} check failed: ${code.toLowerCase().replaceAll("_", " ")}`, {
    code: `CHECK_${check.toUpperCase() as Uppercase<CheckName>}_${code}`,
    cause: { check, provider: providerId, ...(err ? { err } : {}) },
  })
}

async function open(ctx: CheckContext, check: CheckName, sealed: string): Promise<Partial<CheckPayload> | null> {
  try {
    return (await decode({ token: sealed, secret: ctx.secret, salt: cookieOf(ctx, check).name })) as Partial<CheckPayload> | null
  } catch (err) {
    throw invalid(check, "COOKIE_INVALID", ctx.providerId, err as Error)
  }
}

/**
 * The check value from the request's cookies. Throws `InvalidCheck` when the cookie is missing,
 * tampered, expired, or minted by another provider.
 */
export async function readCheckCookie(ctx: CheckContext, check: CheckName, cookies: Record<string, string | undefined>): Promise<string> {
  const sealed = cookies[cookieOf(ctx, check).name]
  if (!sealed) throw invalid(check, "COOKIE_MISSING", ctx.providerId)
  const payload = await open(ctx, check, sealed)
  if (!payload || typeof payload.value !== "string") throw invalid(check, "COOKIE_INVALID", ctx.providerId)
  if (payload.provider !== ctx.providerId) throw invalid(check, "PROVIDER_MISMATCH", ctx.providerId)
  return payload.value
}

/**
 * Cookies that delete the given checks, sent with a successful callback's answer. A failed callback
 * leaves them to expire: clearing them there would let a forged callback link cancel a sign-in the
 * user has in progress.
 */
export function clearCheckCookies(ctx: CheckContext, checks: readonly CheckName[]): Cookie[] {
  return checks.map((check) => expireCookie(cookieOf(ctx, check).name, cookieOf(ctx, check).options))
}
