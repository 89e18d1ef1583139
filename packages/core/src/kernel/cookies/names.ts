/**
 * Default names and attributes of every cookie authlib sets (design.md), and the merge of the
 * user's `cookies` overrides: a partial override keeps every default it does not name.
 *
 * Secure cookies get the `__Secure-` prefix; the CSRF cookie gets `__Host-` (no Domain, Path=/),
 * so a sibling subdomain cannot plant a token for the double-submit check.
 */
import type { AuthConfig, CookieOption, CookiesOptions } from "../types/config.js"

/** Seconds a check cookie (PKCE, state, nonce, WebAuthn challenge) lives. */
export const CHECK_COOKIE_MAX_AGE = 15 * 60

/** The built-in cookie set for a secure (HTTPS) or plain deployment. */
export function defaultCookies(secure: boolean): CookiesOptions {
  const prefix = secure ? "__Secure-" : ""
  const base = { httpOnly: true, sameSite: "lax" as const, path: "/", secure }
  const check = { ...base, maxAge: CHECK_COOKIE_MAX_AGE }
  return {
    sessionToken: { name: `${prefix}authlib.session-token`, options: { ...base } },
    callbackUrl: { name: `${prefix}authlib.callback-url`, options: { ...base } },
    csrfToken: { name: `${secure ? "__Host-" : ""}authlib.csrf-token`, options: { ...base } },
    pkceCodeVerifier: { name: `${prefix}authlib.pkce.code_verifier`, options: { ...check } },
    state: { name: `${prefix}authlib.state`, options: { ...check } },
    nonce: { name: `${prefix}authlib.nonce`, options: { ...check } },
    webauthnChallenge: { name: `${prefix}authlib.challenge`, options: { ...check } },
  }
}

/**
 * The device-mark cookie (credentials/device-mark.ts). Not one of `CookiesOptions` (the spec's set,
 * which `cookies` overrides): its attributes are fixed, HttpOnly, SameSite=Lax, Path=/.
 */
export function deviceMarkCookieName(secure: boolean): string {
  return secure ? "__Secure-authlib.device-mark" : "authlib.device-mark"
}

type CookieOverrides = NonNullable<AuthConfig["cookies"]>

/** Applies the user's overrides to the defaults; returns a new, frozen set. */
export function resolveCookies(secure: boolean, overrides: CookieOverrides = {}): CookiesOptions {
  const defaults = defaultCookies(secure)
  const out = {} as Record<keyof CookiesOptions, CookieOption>
  for (const key of Object.keys(defaults) as Array<keyof CookiesOptions>) {
    const base = defaults[key]
    const user = overrides[key]
    out[key] = Object.freeze({
      name: user?.name ?? base.name,
      options: Object.freeze({ ...base.options, ...(user?.options ?? {}) }),
    })
  }
  return Object.freeze(out)
}
