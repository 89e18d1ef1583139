/**
 * Redirect proxy (spec 2.1 `redirectProxyUrl`): one stable deployment receives every OAuth callback
 * and forwards it to the deployment that started the sign-in (preview deployments, for example).
 *
 * - The authorization request's `redirect_uri` is the proxy's callback URL for the provider.
 * - The `state` parameter is an encrypted token carrying the starting deployment's callback URL,
 *   so only a holder of the shared secret can choose where a callback is forwarded.
 * - The proxy decodes `state`; if it names another deployment, it redirects the callback there
 *   unchanged. That deployment then checks `state` against its own state cookie as usual.
 *
 * The callback carries the user's authorization code, so where it goes is guarded twice: the
 * starting deployment seals its configured `url` (never a request header: validate.ts refuses a
 * proxy set-up without one), and the proxy forwards only to origins on its allow list
 * (`redirectProxyAllowedOrigins`), to a callback path of the same provider. Anything else is
 * refused before a URL with the code in it is built.
 */
import { decode, encode } from "@authlib/jwt"
import { generateRandomState } from "oauth4webapi"
import { InvalidCheck, OAuthCallbackError, type ErrorCode } from "../../kernel/errors/errors.js"
import { originAllowed, type OriginPattern } from "../../kernel/security/origin-patterns.js"
import { CHECK_MAX_AGE } from "./checks.js"

/** Salt of the encrypted `state` parameter: fixed, as the proxy and the origin may name cookies differently. */
const STATE_SALT = "authlib.redirect-proxy-state"

interface ProxyState extends Record<string, unknown> {
  /** The callback URL of the deployment that started the sign-in. */
  origin: string
  random: string
}

/** The `redirect_uri` for a provider when its callbacks go through the proxy at `proxyUrl`. */
export function proxyRedirectUri(proxyUrl: string, providerId: string): string {
  return `${proxyUrl.replace(/\/+$/, "")}/callback/${encodeURIComponent(providerId)}`
}

/** A fresh `state` value that carries `origin` (this deployment's callback URL) to the proxy. */
export async function createProxyState(secret: string | string[], origin: string): Promise<string> {
  const token: ProxyState = { origin, random: generateRandomState() }
  return encode({ token, secret, salt: STATE_SALT, maxAge: CHECK_MAX_AGE })
}

async function originOf(secret: string | string[], state: string | undefined, providerId: string): Promise<string> {
  const fail = (code: ErrorCode<"InvalidCheck">, err?: Error) =>
    new InvalidCheck("state check failed: the redirect proxy state is missing or invalid", {
      code,
      cause: { check: "state", provider: providerId, ...(err ? { err } : {}) },
    })
  if (!state) throw fail("CHECK_STATE_MISSING")
  let payload: Partial<ProxyState> | null
  try {
    payload = (await decode({ token: state, secret, salt: STATE_SALT })) as Partial<ProxyState> | null
  } catch (err) {
    throw fail("CHECK_STATE_TAMPERED", err as Error)
  }
  if (typeof payload?.origin !== "string" || !URL.canParse(payload.origin)) throw fail("CHECK_STATE_TAMPERED")
  return payload.origin
}

/**
 * On the proxy: where to forward this callback, or `undefined` when it is this deployment's own
 * sign-in. Only a request that arrived at the proxy's callback URL is ever forwarded.
 */
export async function proxyForwardUrl(input: {
  secret: string | string[]
  providerId: string
  proxyUrl: string
  /** This deployment's callback URL for the provider. */
  ownCallbackUrl: string
  /** Where this proxy may forward to. */
  allowed: readonly OriginPattern[]
  params: URLSearchParams
}): Promise<string | undefined> {
  if (input.ownCallbackUrl !== proxyRedirectUri(input.proxyUrl, input.providerId)) return undefined
  const origin = await originOf(input.secret, input.params.get("state") ?? undefined, input.providerId)
  if (origin === input.ownCallbackUrl) return undefined
  const target = new URL(origin)
  assertForwardable(target, input.allowed, input.providerId)
  target.search = input.params.toString()
  return target.href
}

/** The target must be a listed origin and this provider's callback path there. */
function assertForwardable(target: URL, allowed: readonly OriginPattern[], providerId: string): void {
  const callbackPath = `/callback/${encodeURIComponent(providerId)}`
  const listed = originAllowed(target, allowed)
  if (listed && target.pathname.endsWith(callbackPath) && target.search === "" && target.hash === "") return
  throw new OAuthCallbackError(
    listed
      ? `The redirect proxy refused to forward the callback of "${providerId}": the sealed target is not that provider's callback URL`
      : `The redirect proxy refused to forward the callback of "${providerId}" to ${target.origin}: add that origin to "redirectProxyAllowedOrigins" (AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS) if it is yours`,
    { code: "REDIRECT_PROXY_TARGET_NOT_ALLOWED", cause: { provider: providerId, target: target.origin, allowed: allowed.map((p) => p.source) } },
  )
}
