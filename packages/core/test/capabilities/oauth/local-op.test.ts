/**
 * Sign-in against a real OpenID provider (oidc-provider on 127.0.0.1), through `Auth()`: code +
 * PKCE + state + nonce, client_secret_basic and _post, public clients, userinfo, `idToken: false`,
 * plain OAuth 2, form_post and discovery; both session strategies; users and account linking.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { AuthConfig, OAuthConfig } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/capabilities/oauth/index.js"
import { APP, browserFor, callbackOf, locationOf, sessionCookie, sessionOf, signInAtLocalOP, startSignIn, testConfig, type LoggedError } from "./helpers/app.js"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"
import { cancelAtOP } from "@authlib/e2e-kit/oidc/op-login"
import { spyAdapter } from "./helpers/spy-adapter.js"

let op: LocalOP
const ids = ["op", "op-post", "op-public", "op-userinfo", "op-oauth", "op-formpost", "op-plain", "op-none"]

beforeAll(async () => {
  op = await startLocalOP(ids.map(callbackOf))
})
afterAll(() => op.close())

function providers(): OAuthConfig[] {
  const base = { name: "Local OP", issuer: op.issuer, [allowInsecureOAuthRequests]: true }
  const basic = { clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret }
  return [
    { ...base, ...basic, id: "op", type: "oidc", checks: ["pkce", "state", "nonce"] },
    { ...base, id: "op-post", type: "oidc", clientId: clients.post.client_id, clientSecret: clients.post.client_secret, client: { token_endpoint_auth_method: "client_secret_post" }, checks: ["pkce", "nonce"] },
    { ...base, id: "op-public", type: "oidc", clientId: clients.public.client_id, client: { token_endpoint_auth_method: "none" } },
    { ...base, ...basic, id: "op-userinfo", type: "oidc", idToken: false },
    { ...base, ...basic, id: "op-formpost", type: "oidc", checks: ["pkce", "state", "nonce"], authorization: { params: { response_mode: "form_post" } } },
    { ...base, ...basic, id: "op-plain", type: "oidc" },
    { ...base, ...basic, id: "op-none", type: "oidc", checks: ["none"] },
    {
      id: "op-oauth", name: "Local OP as OAuth 2", type: "oauth", [allowInsecureOAuthRequests]: true, ...basic,
      authorization: { url: `${op.issuer}/auth`, params: { scope: "openid email profile" } },
      token: `${op.issuer}/token`,
      userinfo: `${op.issuer}/me`,
      checks: ["pkce", "state"],
    },
  ] as OAuthConfig[]
}

let errors: LoggedError[]
beforeEach(() => {
  errors = []
})

function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({ providers: providers(), ...extra }, errors)
}

describe("POST /auth/signin/:provider", () => {
  it("redirects to the discovered authorization endpoint with PKCE S256, state and nonce, and sets bound check cookies", async () => {
    const browser = browserFor(config())
    const step = await startSignIn(browser, "op", "login_hint=alice&redirect_uri=https://evil.example/cb")
    expect(errors).toEqual([])
    const url = new URL(locationOf(step))
    expect(url.origin + url.pathname).toBe(`${op.issuer}/auth`)
    const p = url.searchParams
    expect(p.get("response_type")).toBe("code")
    expect(p.get("client_id")).toBe(clients.basic.client_id)
    expect(p.get("redirect_uri")).toBe(callbackOf("op"))
    expect(p.get("code_challenge_method")).toBe("S256")
    expect(p.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    expect(p.get("state")).toBeTruthy()
    expect(p.get("nonce")).toBeTruthy()
    expect(p.get("scope")).toBe("openid profile email")
    expect(p.get("login_hint")).toBe("alice")
    const cookies = step.response.headers.getSetCookie()
    for (const name of ["authlib.pkce.code_verifier", "authlib.state", "authlib.nonce"]) {
      const cookie = cookies.find((c) => c.startsWith(`${name}=`))
      expect(cookie).toMatch(/HttpOnly/i)
      expect(cookie).toMatch(/Max-Age=900/i)
    }
  })

  it("sends no check at all with checks: [\"none\"]", async () => {
    const step = await startSignIn(browserFor(config()), "op-none")
    const url = new URL(locationOf(step))
    for (const name of ["code_challenge", "state", "nonce"]) expect(url.searchParams.has(name)).toBe(false)
    expect(step.response.headers.getSetCookie().some((c) => /authlib\.(state|nonce|pkce)/.test(c))).toBe(false)
  })

  it("sends only PKCE by default (checks default to [\"pkce\"])", async () => {
    const url = new URL(locationOf(await startSignIn(browserFor(config()), "op-plain")))
    expect(url.searchParams.has("code_challenge")).toBe(true)
    expect(url.searchParams.has("state")).toBe(false)
    expect(url.searchParams.has("nonce")).toBe(false)
  })
})

describe("GET /auth/callback/:provider against oidc-provider (jwt sessions, no adapter)", () => {
  it("signs in with code + PKCE + state + nonce and client_secret_basic; the ID token is the profile", async () => {
    const browser = browserFor(config())
    const done = await signInAtLocalOP(browser, "op", "alice")
    expect(done.response.status).toBe(302)
    expect(locationOf(done)).toBe(`${APP}/dashboard`)
    expect(errors).toEqual([])
    const session = await sessionOf(browser)
    expect(session.user).toEqual({ name: "Alice Liddell", email: "alice@example.com", image: "https://img.example/alice.png" })
    const left = [...browser.cookies(APP).keys()]
    expect(left).not.toContain("authlib.state")
    expect(left).not.toContain("authlib.pkce.code_verifier")
    expect(left).not.toContain("authlib.nonce")
  })

  it.each([
    ["client_secret_post", "op-post"],
    ["none (public client)", "op-public"],
    ["idToken: false (profile from userinfo, sub compared)", "op-userinfo"],
    ["type oauth (explicit endpoints, userinfo)", "op-oauth"],
    ["form_post (re-issued as a GET so Lax cookies arrive)", "op-formpost"],
    ["checks: [\"none\"] (no check cookie at all)", "op-none"],
  ])("signs in with %s", async (_label, id) => {
    const browser = browserFor(config())
    const done = await signInAtLocalOP(browser, id, "bob")
    expect(errors).toEqual([])
    expect(locationOf(done)).toBe(`${APP}/dashboard`)
    expect((await sessionOf(browser)).user.email).toBe("bob@example.com")
  })

  it("passes the account and profile to the jwt and signIn callbacks: token_type lower-cased, expires_at from expires_in", async () => {
    const seen: any[] = []
    const browser = browserFor(config({
      callbacks: {
        signIn: ({ account, profile }) => (seen.push({ account, profile }), true),
        jwt: ({ token, trigger }) => ({ ...token, trigger }),
      },
    }))
    const before = Math.floor(Date.now() / 1000)
    await signInAtLocalOP(browser, "op", "alice")
    const { account, profile } = seen[0]
    expect(account).toMatchObject({ provider: "op", type: "oidc", providerAccountId: "alice", token_type: "bearer" })
    expect(typeof account.access_token).toBe("string")
    expect(typeof account.id_token).toBe("string")
    expect(account.expires_at).toBeGreaterThanOrEqual(before + 3500)
    expect(account.expires_at).toBeLessThanOrEqual(before + 3700)
    expect(profile).toMatchObject({ sub: "alice", iss: op.issuer, aud: clients.basic.client_id })
  })

  it("fetches the discovery document once per issuer, not per request", async () => {
    const before = op.discoveryRequests
    const cfg = config()
    for (let i = 0; i < 3; i++) await startSignIn(browserFor(cfg), "op")
    expect(op.discoveryRequests - before).toBeLessThanOrEqual(1)
  })
})

describe("the user cancels at the provider", () => {
  it("oidc-provider's [ Cancel ] (access_denied) ends on the error page as OAuthCallbackCancelled, no session, not AccessDenied", async () => {
    const browser = browserFor(config())
    const start = await startSignIn(browser, "op")
    const back = await cancelAtOP(browser, locationOf(start))
    expect(new URL(back).searchParams.get("error")).toBe("access_denied")
    const done = await browser.request(back)
    const location = new URL(locationOf(done))
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("OAuthCallbackCancelled")
    expect(sessionCookie(browser)).toBeUndefined()
    expect(errors).toEqual([]) // a cancel is the user's choice, not a server fault worth an error log
  })
})

describe("endpoint handlers (url/params/request/conform)", () => {
  const basic = () => ({ clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret, name: "OP", [allowInsecureOAuthRequests]: true })

  it("token.request replaces the code exchange; the ID token it returns is still fully validated", async () => {
    const seen: any[] = []
    const provider = {
      ...basic(), id: "op", type: "oidc", issuer: op.issuer, checks: ["pkce", "nonce"],
      token: {
        async request({ params, checks }: any) {
          seen.push({ params, checks })
          const body = new URLSearchParams({ grant_type: "authorization_code", code: params.code, redirect_uri: callbackOf("op"), code_verifier: checks.code_verifier, client_id: clients.basic.client_id, client_secret: clients.basic.client_secret })
          const res = await fetch(`${op.issuer}/token`, { method: "POST", body })
          return { tokens: await res.json() }
        },
      },
    } as OAuthConfig
    const browser = browserFor(testConfig({ providers: [provider] }, errors))
    await signInAtLocalOP(browser, "op", "alice")
    expect(errors).toEqual([])
    expect(seen[0].checks.nonce).toBeTruthy()
    expect((await sessionOf(browser)).user.email).toBe("alice@example.com")
  })

  it("userinfo.request supplies the profile of an OAuth 2 provider; token.params and conform apply to the token call", async () => {
    let conformed = 0
    const provider = {
      ...basic(), id: "op-oauth", type: "oauth", checks: ["pkce"],
      authorization: { url: `${op.issuer}/auth`, params: { scope: "openid email" } },
      token: { url: `${op.issuer}/token`, params: { audience: "ignored-by-op" }, conform: (r: Response) => (conformed++, r) },
      userinfo: {
        url: `${op.issuer}/me`,
        async request({ tokens }: any) {
          const res = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
          return { ...(await res.json()), name: "From request" }
        },
      },
    } as OAuthConfig
    const browser = browserFor(testConfig({ providers: [provider] }, errors))
    await signInAtLocalOP(browser, "op-oauth", "bob")
    expect(errors).toEqual([])
    expect(conformed).toBe(1)
    expect((await sessionOf(browser)).user).toMatchObject({ name: "From request", email: "bob@example.com" })
  })
})

describe("users and accounts with an adapter (database sessions)", () => {
  it("first sign-in creates the user and links the account (events), later ones reuse them", async () => {
    const adapter = spyAdapter()
    const events: string[] = []
    const cfg = config({
      adapter,
      events: { createUser: () => void events.push("createUser"), linkAccount: () => void events.push("linkAccount"), signIn: () => void events.push("signIn") },
    })
    const first = browserFor(cfg)
    await signInAtLocalOP(first, "op", "alice")
    expect(adapter.writes).toEqual(["createUser", "linkAccount", "createSession"])
    expect(events).toEqual(["createUser", "linkAccount", "signIn"])
    expect(adapter.accounts[0]).toMatchObject({ provider: "op", providerAccountId: "alice", token_type: "bearer" })
    expect((await sessionOf(first)).user.email).toBe("alice@example.com")
    await signInAtLocalOP(browserFor(cfg), "op", "alice")
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts).toHaveLength(1)
  })

  it("with jwt sessions and an adapter, the jwt callback sees trigger signUp first, then signIn", async () => {
    const triggers: unknown[] = []
    const cfg = config({ adapter: spyAdapter(), session: { strategy: "jwt" }, callbacks: { jwt: ({ token, trigger }) => (triggers.push(trigger), token) } })
    await signInAtLocalOP(browserFor(cfg), "op", "alice")
    await signInAtLocalOP(browserFor(cfg), "op", "alice")
    expect(triggers.slice(0, 2)).toEqual(["signUp", "signIn"])
  })

  it("does not link to an existing user with the same e-mail: OAuthAccountNotLinked, nothing written", async () => {
    const adapter = spyAdapter()
    await adapter.createUser?.({ id: "u1", email: "bob@example.com", emailVerified: null })
    adapter.writes.length = 0
    const browser = browserFor(config({ adapter }))
    const done = await signInAtLocalOP(browser, "op", "bob")
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=OAuthAccountNotLinked`)
    expect(adapter.writes).toEqual([])
    expect(sessionCookie(browser)).toBeUndefined()
  })

  it("links to the user with the same e-mail when allowDangerousEmailAccountLinking is set (both addresses verified)", async () => {
    const adapter = spyAdapter()
    await adapter.createUser?.({ id: "u1", email: "bob@example.com", emailVerified: new Date() })
    const linking = providers().map((p) => ({ ...p, allowDangerousEmailAccountLinking: true }))
    const browser = browserFor(testConfig({ providers: linking, adapter }, errors))
    await signInAtLocalOP(browser, "op", "bob")
    expect(adapter.accounts).toMatchObject([{ userId: "u1", provider: "op", providerAccountId: "bob" }])
  })

  it("signing in with a second provider while signed in links that account to the current user", async () => {
    const adapter = spyAdapter()
    const browser = browserFor(config({ adapter }))
    await signInAtLocalOP(browser, "op", "alice")
    const [user] = [...adapter.users.values()]
    browser.jar.delete(new URL(op.issuer).host) // sign out at the OP, keep the app session
    await signInAtLocalOP(browser, "op-post", "bob")
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts.map((a) => [a.provider, a.providerAccountId, a.userId])).toEqual([
      ["op", "alice", user!.id],
      ["op-post", "bob", user!.id],
    ])
  })

  it("a signIn callback that refuses the second provider links nothing to the signed-in user", async () => {
    const adapter = spyAdapter()
    const refuseSecond = { signIn: ({ account }: { account?: { provider?: string } | null }) => account?.provider !== "op-post" }
    const browser = browserFor(config({ adapter, callbacks: refuseSecond }))
    await signInAtLocalOP(browser, "op", "alice")
    browser.jar.delete(new URL(op.issuer).host)
    await signInAtLocalOP(browser, "op-post", "bob").catch(() => undefined)
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts.map((a) => a.provider)).toEqual(["op"])
  })
})
