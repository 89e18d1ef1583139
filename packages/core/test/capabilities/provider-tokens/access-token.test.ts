/**
 * `getAccessToken` against a real OpenID provider that issues short-lived access tokens and
 * rotating refresh tokens: a fresh token as stored, a refresh when it is due (rotation stored), one
 * refresh for many concurrent callers, a spent refresh token, the provider down, a lost
 * compare-and-swap, and the checks before any of it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Auth, getAccessToken, MissingAdapterMethods, RefreshTokenError, SessionRequired, type AdapterAccount, type AuthConfig, type OAuthConfig } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/capabilities/oauth/index.js"
import { APP, browserFor, callbackOf, sessionCookie, signInAtLocalOP, testConfig, type LoggedError } from "../oauth/helpers/app.js"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"
import { spyAdapter, type SpyAdapter } from "../oauth/helpers/spy-adapter.js"
import type { Browser } from "@authlib/e2e-kit/oidc/browser"

let op: LocalOP
beforeAll(async () => {
  op = await startLocalOP([callbackOf("op"), callbackOf("op-dead")], { refresh: { accessTokenTtl: 30 } })
})
afterAll(() => op.close())

type TokenAdapter = SpyAdapter & { beforeUpdate?: () => void }

/** The same ID token with another `aud` (its signature no longer matches, and the audience is wrong). */
function swapAudience(idToken: string): string {
  const [header, payload, signature] = idToken.split(".")
  const claims = { ...JSON.parse(Buffer.from(payload!, "base64url").toString()), aud: "someone-else" }
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`
}

/** The spy adapter plus the account methods getAccessToken needs (`beforeUpdate` runs inside `updateAccount`). */
function tokenAdapter(): TokenAdapter {
  const adapter: TokenAdapter = spyAdapter()
  const key = (a: { provider: string; providerAccountId: string }) => `${a.provider}\u0000${a.providerAccountId}`
  return Object.assign(adapter, {
    getAccount: async (providerAccountId: string, provider: string) => {
      const found = adapter.accounts.find((a) => key(a) === key({ provider, providerAccountId }))
      return found ? { ...found } : null
    },
    listAccountsByUserId: async (userId: string) => adapter.accounts.filter((a) => a.userId === userId).map((a) => ({ ...a })),
    updateAccount: async (patch: Partial<AdapterAccount> & { provider: string; providerAccountId: string }, expected?: { refresh_token: string | null }) => {
      adapter.beforeUpdate?.()
      const stored = adapter.accounts.find((a) => key(a) === key(patch))
      if (!stored || (expected && (stored.refresh_token ?? null) !== expected.refresh_token)) return null
      adapter.writes.push("updateAccount")
      for (const field of ["access_token", "refresh_token", "expires_at", "id_token", "scope", "token_type"] as const) if (patch[field] !== undefined) (stored as Record<string, unknown>)[field] = patch[field]
      return { ...stored }
    },
  })
}

interface Setup {
  config: AuthConfig
  adapter: TokenAdapter
  browser: Browser
  errors: LoggedError[]
  /** The app's own request, carrying the browser's cookies (as a framework route would see it). */
  request(): Request
  account(): AdapterAccount
}

async function signedIn(over: Partial<OAuthConfig> = {}, strategy: "database" | "jwt" = "database"): Promise<Setup> {
  const errors: LoggedError[] = []
  const adapter = tokenAdapter()
  const provider = {
    id: "op", name: "Local OP", type: "oidc", issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret,
    [allowInsecureOAuthRequests]: true, authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } }, ...over,
  } as unknown as OAuthConfig
  const config = testConfig({ providers: [provider], adapter, session: { strategy } }, errors)
  const browser = browserFor(config)
  await signInAtLocalOP(browser, "op", "alice")
  expect(sessionCookie(browser)).toBeTruthy()
  const request = () => new Request(`${APP}/api/data`, { headers: { cookie: [...browser.cookies(APP)].map(([k, v]) => `${k}=${v}`).join("; ") } })
  const account = () => adapter.accounts.find((a) => a.provider === "op")!
  expect(account().refresh_token).toBeTruthy()
  return { config, adapter, browser, errors, request, account }
}

describe("getAccessToken", () => {
  it("a token that is still fresh is answered as stored, without a call to the provider", async () => {
    const s = await signedIn()
    const before = op.tokenRequests
    const token = await getAccessToken(s.request(), s.config, "op", { minValidity: 10 })
    expect(token).toEqual({ accessToken: s.account().access_token, expiresAt: s.account().expires_at, tokenType: "bearer", scope: expect.any(String), setCookie: [] })
    expect(op.tokenRequests).toBe(before)
  })

  it("a token due within minValidity is refreshed: new access token, rotated refresh token, both stored", async () => {
    const s = await signedIn()
    const old = { ...s.account() }
    const before = op.tokenRequests
    const token = await getAccessToken(s.request(), s.config, "op", { minValidity: 3600 })
    expect(op.tokenRequests).toBe(before + 1)
    expect(token.accessToken).not.toBe(old.access_token)
    expect(token.expiresAt).toBeGreaterThan(Date.now() / 1000 + 20)
    expect(s.account()).toMatchObject({ access_token: token.accessToken, expires_at: token.expiresAt })
    expect(s.account().refresh_token).toBeTruthy()
    expect(s.account().refresh_token).not.toBe(old.refresh_token)
    // The new token works at the provider.
    const userinfo = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${token.accessToken}` } })
    expect(((await userinfo.json()) as { sub: string }).sub).toBe("alice")
  })

  it("20 concurrent calls that all find the token due cause one refresh at the provider and share its result", async () => {
    const s = await signedIn()
    const before = op.tokenRequests
    const tokens = await Promise.all(Array.from({ length: 20 }, () => getAccessToken(s.request(), s.config, "op", { minValidity: 3600 })))
    expect(op.tokenRequests).toBe(before + 1)
    expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1)
    // Two writes: the lease claimed, then the new tokens in its place.
    expect(s.adapter.writes.filter((w) => w === "updateAccount")).toHaveLength(2)
  })

  it("a spent refresh token (the provider refuses it): RefreshTokenError INVALID_GRANT, stored tokens unchanged, still signed in", async () => {
    const s = await signedIn()
    const spent = s.account().refresh_token!
    await getAccessToken(s.request(), s.config, "op", { minValidity: 3600 })
    // Put the spent (rotated away) refresh token back, as a replayed or stale row would hold it.
    Object.assign(s.account(), { refresh_token: spent, expires_at: 1 })
    const stored = { ...s.account() }
    const refused: Array<{ provider: string; userId: string }> = []
    // A config object with the event handler (events are read when a config is first resolved).
    const withEvents = { ...s.config, events: { refreshTokenError: ({ provider, userId }: { provider: string; userId: string }) => void refused.push({ provider, userId }) } }
    const err = await getAccessToken(s.request(), withEvents, "op").catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RefreshTokenError)
    expect(err).toMatchObject({ code: "INVALID_GRANT" })
    expect(refused).toEqual([{ provider: "op", userId: s.account().userId }])
    expect(s.account()).toEqual(stored)
    const session = await s.browser.request(`${APP}/auth/session`)
    expect(JSON.parse(session.body)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  /** A spent refresh token in place, as after a rotation another party used. */
  async function withSpentToken(s: Setup) {
    const spent = s.account().refresh_token!
    await getAccessToken(s.request(), s.config, "op", { minValidity: 3600 })
    Object.assign(s.account(), { refresh_token: spent, expires_at: 1 })
  }

  it("a refused refresh token marks the database session (session.error), for an adapter that keeps session metadata", async () => {
    const s = await signedIn()
    // The session-listing port says the adapter keeps session metadata (see AdapterSession).
    Object.assign(s.adapter, {
      listSessionsByUserId: async (userId: string) => [...s.adapter.sessions.values()].filter((x) => x.userId === userId),
      deleteSessionsByUserId: async (userId: string) => {
        for (const [key, x] of s.adapter.sessions) if (x.userId === userId) s.adapter.sessions.delete(key)
      },
    })
    const config = { ...s.config }
    await withSpentToken({ ...s, config })
    expect(await getAccessToken(s.request(), config, "op").catch((e: unknown) => e)).toMatchObject({ code: "INVALID_GRANT", setCookie: [] })
    const session = JSON.parse((await s.browser.request(`${APP}/auth/session`)).body)
    expect(session).toMatchObject({ user: { email: "alice@example.com" }, error: "RefreshTokenError" })
    expect([...s.adapter.sessions.values()][0]).toMatchObject({ error: "RefreshTokenError" })
  })

  it("an Auth.js adapter (no session metadata) is never sent the mark; the session reads unmarked", async () => {
    const s = await signedIn()
    await withSpentToken(s)
    expect(await getAccessToken(s.request(), s.config, "op").catch((e: unknown) => e)).toMatchObject({ code: "INVALID_GRANT" })
    expect(s.adapter.writes).not.toContain("updateSession")
    expect(JSON.parse((await s.browser.request(`${APP}/auth/session`)).body).error).toBeUndefined()
  })

  it("JWT sessions with the tokens on the account row: a refused refresh token marks the token (re-issued through setCookie)", async () => {
    const s = await signedIn({}, "jwt")
    await withSpentToken(s)
    const err = (await getAccessToken(s.request(), s.config, "op").catch((e: unknown) => e)) as RefreshTokenError
    expect(err).toMatchObject({ code: "INVALID_GRANT" })
    expect(err.setCookie).toHaveLength(1)
    const marked = new Request(`${APP}/auth/session`, { headers: { cookie: err.setCookie![0]!.split(";")[0]! } })
    expect(await (await Auth(marked, s.config)).json()).toMatchObject({ user: { email: "alice@example.com" }, error: "RefreshTokenError" })
    // The browser's own cookie, not yet replaced, still reads unmarked: the app must send setCookie.
    expect(JSON.parse((await s.browser.request(`${APP}/auth/session`)).body).error).toBeUndefined()
  })

  it('onInvalidGrant: "sign-out" ends the session (signOut event, cookie cleared through setCookie)', async () => {
    const s = await signedIn()
    await withSpentToken(s)
    const signedOut: unknown[] = []
    const config = { ...s.config, events: { signOut: (message: unknown) => void signedOut.push(message) } }
    const err = (await getAccessToken(s.request(), config, "op", { onInvalidGrant: "sign-out" }).catch((e: unknown) => e)) as RefreshTokenError
    expect(err).toMatchObject({ code: "INVALID_GRANT" })
    expect(err.setCookie!.some((c) => /^authlib\.session-token=;/.test(c))).toBe(true)
    expect(signedOut).toHaveLength(1)
    expect(s.adapter.sessions.size).toBe(0)
    expect(JSON.parse((await s.browser.request(`${APP}/auth/session`)).body)).toBeNull()
  })

  it("the provider down: retried once, then RefreshTokenError REFRESH_FAILED, stored tokens unchanged", async () => {
    const s = await signedIn()
    // The same provider, its token endpoint now on a closed port.
    const provider = s.config.providers[0] as OAuthConfig
    const dead = { ...s.config, providers: [{ ...provider, token: "http://127.0.0.1:9/token" } as OAuthConfig] }
    Object.assign(s.account(), { expires_at: 1 })
    const stored = { ...s.account() }
    const err = await getAccessToken(s.request(), dead, "op").catch((e: unknown) => e)
    expect(err).toMatchObject({ type: "RefreshTokenError", code: "REFRESH_FAILED" })
    expect(s.account()).toEqual(stored)
  })

  it("an instance that loses the compare-and-swap answers the winner's stored tokens, not its own", async () => {
    const s = await signedIn()
    const winner = { access_token: "stored-by-another-instance", expires_at: Math.floor(Date.now() / 1000) + 7200 }
    // Another instance stores its refresh between our read and our write.
    s.adapter.beforeUpdate = () => {
      s.adapter.beforeUpdate = undefined
      Object.assign(s.account(), { ...winner, refresh_token: "rotated-by-another-instance" })
    }
    const before = op.tokenRequests
    const token = await getAccessToken(s.request(), s.config, "op", { minValidity: 3600 })
    expect(token.accessToken).toBe("stored-by-another-instance")
    expect(s.account().access_token).toBe("stored-by-another-instance")
    expect(op.tokenRequests).toBe(before)
  })

  it("two instances (separate module graphs, one shared database) racing a due token: one refresh at the provider, both get the new token", async () => {
    const s = await signedIn()
    vi.resetModules()
    const other = (await import("../../../src/index.js")).getAccessToken
    expect(other).not.toBe(getAccessToken)
    const before = op.tokenRequests
    const [a, b] = await Promise.all([
      getAccessToken(s.request(), s.config, "op", { minValidity: 3600 }),
      other(s.request(), { ...s.config }, "op", { minValidity: 3600 }),
    ])
    expect(op.tokenRequests).toBe(before + 1)
    expect(a.accessToken).toBe(b.accessToken)
    expect(s.account()).toMatchObject({ access_token: a.accessToken })
    expect(s.account().refresh_token).not.toMatch(/^authlib-refresh-lease:/)
  })

  it("a lease left by an instance that died is taken over once it runs out; the refresh token inside it is used", async () => {
    const s = await signedIn()
    const original = s.account().refresh_token!
    Object.assign(s.account(), { expires_at: 1, refresh_token: `authlib-refresh-lease:${Date.now() - 1}:dead-instance:${original}` })
    const token = await getAccessToken(s.request(), s.config, "op")
    expect(token.accessToken).toBe(s.account().access_token)
    expect(s.account().refresh_token).not.toMatch(/^authlib-refresh-lease:/)
    expect(s.account().refresh_token).not.toBe(original)
  })

  it("refuses without a session, for an unknown or non-OAuth provider, for an unlinked provider, and without the adapter methods", async () => {
    const s = await signedIn()
    expect(await getAccessToken(new Request(`${APP}/api`), s.config, "op").catch((e: unknown) => e)).toBeInstanceOf(SessionRequired)
    expect(await getAccessToken(s.request(), s.config, "nope").catch((e: unknown) => e)).toMatchObject({ type: "InvalidProvider", code: "UNKNOWN_PROVIDER" })
    s.adapter.accounts.splice(0, s.adapter.accounts.length)
    s.errors.length = 0
    expect(await getAccessToken(s.request(), s.config, "op").catch((e: unknown) => e)).toMatchObject({ type: "RefreshTokenError", code: "ACCOUNT_NOT_LINKED" })
    // An answer the app asked for ("no account of that provider") is not logged as an error.
    expect(s.errors).toEqual([])
    const { updateAccount: _gone, ...without } = s.adapter
    const bare = { ...s.config, adapter: without }
    expect(await getAccessToken(s.request(), bare, "op").catch((e: unknown) => e)).toBeInstanceOf(MissingAdapterMethods)
  })

  /** The provider's real answer to the refresh, rewritten before core reads it. */
  const answers: Record<string, (real: Record<string, unknown>) => Response> = {
    "no access_token": ({ access_token: _gone, ...rest }) => Response.json(rest),
    "a token_type that is not bearer": (real) => Response.json({ ...real, token_type: "mac" }),
    "a negative expires_in": (real) => Response.json({ ...real, expires_in: -5 }),
    "an absurd expires_in": (real) => Response.json({ ...real, expires_in: 1e12 }),
    "an ID token for another audience": (real) => Response.json({ ...real, id_token: swapAudience(String(real.id_token)) }),
    "HTML instead of JSON": () => new Response("<html>oops</html>", { status: 200, headers: { "content-type": "text/html" } }),
    "a 500, twice": () => new Response("down", { status: 500 }),
  }

  it.each(Object.keys(answers))("an answer with %s: RefreshTokenError REFRESH_FAILED, stored tokens unchanged", async (label) => {
    // Sign-in answers pass as they are; from the refresh on, the provider's answer is rewritten.
    const rewrite = { on: false, count: 0 }
    const conform = async (res: Response) => (rewrite.on ? (rewrite.count++, answers[label]!((await res.json().catch(() => ({}))) as Record<string, unknown>)) : res)
    const s = await signedIn({ token: { conform } } as never)
    rewrite.on = true
    const stored = { ...s.account() }
    const err = await getAccessToken(s.request(), s.config, "op", { minValidity: 3600 }).catch((e: unknown) => e)
    expect(err).toMatchObject({ type: "RefreshTokenError", code: "REFRESH_FAILED" })
    expect(s.account()).toEqual(stored)
    expect(rewrite.count).toBe(label === "a 500, twice" ? 2 : 1)
  })

  it("an expired token without a refresh token: REFRESH_TOKEN_MISSING", async () => {
    const s = await signedIn()
    Object.assign(s.account(), { expires_at: 1 })
    delete (s.account() as Partial<AdapterAccount>).refresh_token
    expect(await getAccessToken(s.request(), s.config, "op").catch((e: unknown) => e)).toMatchObject({ type: "RefreshTokenError", code: "REFRESH_TOKEN_MISSING" })
  })
})
