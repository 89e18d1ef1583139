/**
 * `getAccessToken` with provider tokens kept in the JWT session (`session.providerTokens`, no
 * adapter), against a real OpenID provider with rotating refresh tokens and 30-second access tokens.
 */
import setCookieParser from "set-cookie-parser"
import { decode } from "@authlib/jwt"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getAccessToken, MissingAdapterMethods, RefreshTokenError, type AuthConfig, type OAuthConfig } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/capabilities/oauth/index.js"
import { APP, browserFor, callbackOf, sessionCookie, signInAtLocalOP, testConfig } from "../oauth/helpers/app.js"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"

const SALT = "authlib.session-token"
let op: LocalOP
beforeAll(async () => {
  op = await startLocalOP([callbackOf("op")], { refresh: { accessTokenTtl: 30 } })
})
afterAll(() => op.close())

function config(providerTokens: boolean): AuthConfig {
  const provider = {
    id: "op", name: "Local OP", type: "oidc", issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret,
    [allowInsecureOAuthRequests]: true, authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } },
  } as unknown as OAuthConfig
  return testConfig({ providers: [provider], session: { strategy: "jwt", providerTokens } })
}

async function signedIn(providerTokens = true) {
  const cfg = config(providerTokens)
  const browser = browserFor(cfg)
  await signInAtLocalOP(browser, "op", "alice")
  const cookie = sessionCookie(browser)!
  return { cfg, browser, cookie, request: (value = cookie) => new Request(`${APP}/api`, { headers: { cookie: `${SALT}=${value}` } }) }
}

const payloadOf = async (value: string) => decode({ token: value, secret: "test-secret-0123456789abcdefghijklmnopqrstuvwxyz", salt: SALT })

describe("getAccessToken with session.providerTokens (JWT, no adapter)", () => {
  it("the sign-in keeps the provider's tokens inside the encrypted token; GET /session does not show them", async () => {
    const { cookie, browser } = await signedIn()
    const payload = await payloadOf(cookie)
    expect(payload?.providerTokens).toMatchObject({ op: { access_token: expect.any(String), refresh_token: expect.any(String), expires_at: expect.any(Number), token_type: "bearer" } })
    const session = await browser.request(`${APP}/auth/session`)
    expect(session.body).not.toContain("access_token")
    expect(session.body).not.toContain("providerTokens")
  })

  it("a fresh token is answered from the session with no cookie to set and no provider call", async () => {
    const { cfg, request, cookie } = await signedIn()
    const before = op.tokenRequests
    const token = await getAccessToken(request(), cfg, "op", { minValidity: 10 })
    expect(token.accessToken).toBe(((await payloadOf(cookie))?.providerTokens as { op: { access_token: string } }).op.access_token)
    expect(token.setCookie).toEqual([])
    expect(op.tokenRequests).toBe(before)
  })

  it("a due token is refreshed once for 10 concurrent calls; each answer re-issues the session with the new tokens, which the next call uses", async () => {
    const { cfg, request } = await signedIn()
    const before = op.tokenRequests
    const answers = await Promise.all(Array.from({ length: 10 }, () => getAccessToken(request(), cfg, "op", { minValidity: 3600 })))
    expect(op.tokenRequests).toBe(before + 1)
    expect(new Set(answers.map((a) => a.accessToken)).size).toBe(1)
    const [cookie] = setCookieParser.parse(answers[0]!.setCookie, { decodeValues: false }).filter((c) => c.name === SALT)
    expect(cookie).toBeDefined()
    const payload = await payloadOf(cookie!.value)
    expect((payload?.providerTokens as { op: { access_token: string } }).op.access_token).toBe(answers[0]!.accessToken)
    expect(payload).toMatchObject({ sub: "alice", email: "alice@example.com" })
    const after = op.tokenRequests
    const again = await getAccessToken(request(cookie!.value), cfg, "op", { minValidity: 10 })
    expect(again.accessToken).toBe(answers[0]!.accessToken)
    expect(op.tokenRequests).toBe(after)
  })

  it("a refused refresh token marks the session (session.error), emits refreshTokenError, and the user stays signed in", async () => {
    const events: Array<{ provider: string; userId: string; code: string }> = []
    const signed = await signedIn()
    const { request } = signed
    // A config object with the event handler (events are read when a config is first resolved).
    const cfg: AuthConfig = { ...signed.cfg, events: { refreshTokenError: ({ provider, userId, error }) => void events.push({ provider, userId, code: error.code! }) } }
    // Spend the session's refresh token with one refresh, then present the old session again.
    await getAccessToken(request(), cfg, "op", { minValidity: 3600 })
    const err = (await getAccessToken(request(), cfg, "op", { minValidity: 3600 }).catch((e: unknown) => e)) as RefreshTokenError
    expect(err).toBeInstanceOf(RefreshTokenError)
    expect(err.code).toBe("INVALID_GRANT")
    expect(events).toEqual([{ provider: "op", userId: "alice", code: "INVALID_GRANT" }])
    const [marked] = setCookieParser.parse(err.setCookie!, { decodeValues: false }).filter((c) => c.name === SALT)
    const browser = browserFor(cfg)
    browser.cookies(APP).set(SALT, marked!.value)
    const session = JSON.parse((await browser.request(`${APP}/auth/session`)).body)
    expect(session).toMatchObject({ user: { email: "alice@example.com" }, error: "RefreshTokenError" })
  })

  it("without session.providerTokens and without an adapter: MissingAdapterMethods naming both ways", async () => {
    const { cfg, request } = await signedIn(false)
    const err = await getAccessToken(request(), cfg, "op").catch((e: unknown) => e)
    expect(err).toBeInstanceOf(MissingAdapterMethods)
    expect((err as Error).message).toContain("session.providerTokens")
  })

  it("a session without that provider's tokens: ACCOUNT_NOT_LINKED; no session: SessionRequired", async () => {
    const { cfg, request } = await signedIn()
    const other = { ...cfg, providers: [...cfg.providers, { ...(cfg.providers[0] as object), id: "other" } as OAuthConfig] }
    expect(await getAccessToken(request(), other, "other").catch((e: unknown) => e)).toMatchObject({ type: "RefreshTokenError", code: "ACCOUNT_NOT_LINKED" })
    expect(await getAccessToken(new Request(`${APP}/api`), cfg, "op").catch((e: unknown) => e)).toMatchObject({ type: "SessionRequired" })
  })
})
