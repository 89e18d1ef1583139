/**
 * The cookie that binds an SSO sign-in to the browser that started it. It must reach the ACS in the
 * IdP's cross-site form POST, so it is `SameSite=None; Secure` (browsers accept `Secure` on
 * `http://localhost`), never `Lax`. Its value is sealed (`@authlib/jwt`'s `encode`, a key of its own)
 * and names the connection, the AuthnRequest ID (OIDC: the state, with the PKCE verifier and the
 * nonce) and where the user goes after; it expires 5 minutes
 * after the start by the library's clock (`startedAt`, checked on opening, whatever the browser
 * keeps) and every answer of the ACS or the OIDC callback clears it.
 * The request's own single use is the verification-token store's (`request-record.ts`), so a copy
 * of the cookie replayed from elsewhere fails there.
 */
import { decode, encode } from "@authlib/jwt"
import type { Cookie } from "../../kernel/types/http.js"
import type { Context } from "../../kernel/types/http.js"

/** Seconds a started SSO sign-in may take. */
export const BINDING_MAX_AGE = 300

const SALT = "authlib.sso-binding"
const cookieName = (ctx: Context) => `${ctx.secure ? "__Secure-" : ""}authlib.sso-binding`
const options = (maxAge: number) => ({ httpOnly: true, sameSite: "none" as const, path: "/", secure: true, maxAge })

/** What the cookie holds. */
export interface SsoBinding {
  /** The connection the sign-in started with. */
  connectionId: string
  /** SAML: the AuthnRequest ID; OIDC: the state. */
  requestId: string
  /** Where the user goes once signed in (already through the `redirect` callback). */
  callbackUrl: string
  /** OIDC: the PKCE verifier and the nonce. */
  codeVerifier?: string
  nonce?: string
}

/** Seconds since the epoch: the library's clock (`Date.now`, as sessions count). */
const nowSeconds = () => Math.floor(Date.now() / 1000)

/** The binding cookie for `binding`, started now. */
export async function bindingCookie(ctx: Context, binding: SsoBinding): Promise<Cookie> {
  // `startedAt` decides the 5 minutes exactly (the token's own `exp` allows the JWT library's 15 s of skew).
  const value = await encode({ token: { ...binding, startedAt: nowSeconds() }, secret: ctx.config.secret[0]!, salt: SALT, maxAge: BINDING_MAX_AGE })
  return { name: cookieName(ctx), value, options: options(BINDING_MAX_AGE) }
}

/** The cookie's expiry (sent with every answer of the ACS and callback: it is single use). */
export const clearBinding = (ctx: Context): Cookie => ({ name: cookieName(ctx), value: "", options: options(0) })

/** The request's binding for `connectionId`, or null (absent, altered, expired, for another connection). */
export async function readBinding(ctx: Context, cookies: Readonly<Record<string, string>>, connectionId: string): Promise<SsoBinding | null> {
  const value = cookies[cookieName(ctx)]
  if (!value || value.length > 4096) return null
  try {
    const payload = await decode({ token: value, secret: [...ctx.config.secret], salt: SALT })
    if (!payload || payload.connectionId !== connectionId || typeof payload.requestId !== "string" || typeof payload.callbackUrl !== "string") return null
    const age = nowSeconds() - Number(payload.startedAt)
    if (!(age >= 0 && age < BINDING_MAX_AGE)) return null
    const { connectionId: id, requestId, callbackUrl, codeVerifier, nonce } = payload as unknown as SsoBinding
    return { connectionId: id, requestId, callbackUrl, ...(typeof codeVerifier === "string" && typeof nonce === "string" ? { codeVerifier, nonce } : {}) }
  } catch {
    return null
  }
}
