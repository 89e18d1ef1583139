import { describe, expect, it } from "vitest"
import { getSession, setEnvDefaults } from "../src/index.js"
import { fakeEvent, Redirected, runLoader } from "./harness/fake-event.js"
import { ada, ORIGIN, SECRET, testConfig } from "./harness/config.js"
import { csrf, handle, setup, signInThroughRoute } from "./harness/setup.js"

describe("onRequest under basePath", () => {
  it("GET /auth/csrf sends core's JSON and sets the CSRF cookie through ev.cookie with its attributes", async () => {
    const { auth } = setup()
    const ev = fakeEvent(`${ORIGIN}/auth/csrf`)
    expect(await handle(auth, ev)).toBeUndefined()
    const sent = ev.recorded.sent!
    expect(sent.status).toBe(200)
    expect(sent.headers.get("content-type")).toBe("application/json")
    expect(sent.headers.get("set-cookie")).toBeNull()
    expect(Object.keys((await sent.json()) as object)).toEqual(["csrfToken"])
    expect(ev.recorded.cookies).toHaveLength(1)
    expect(ev.recorded.cookies[0]).toMatchObject({ name: "authlib.csrf-token", options: { httpOnly: true, sameSite: "lax", path: "/" } })
  })

  it("GET /auth/signin sends core's HTML sign-in page listing the providers", async () => {
    const { auth } = setup()
    const ev = fakeEvent(`${ORIGIN}/auth/signin`)
    await handle(auth, ev)
    expect(ev.recorded.sent!.status).toBe(200)
    expect(ev.recorded.sent!.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await ev.recorded.sent!.text()
    expect(html).toContain("Password")
    expect(html).toContain("Test IdP")
  })

  it("POST /auth/callback/password redirects with core's status and Location, setting every cookie core set", async () => {
    const { auth } = setup()
    const { ev, thrown, cookie } = await signInThroughRoute(auth)
    expect(thrown).toBeInstanceOf(Redirected)
    expect(thrown).toMatchObject({ status: 302, location: `${ORIGIN}/account` })
    expect(ev.recorded.sent).toBeUndefined()
    const session = ev.recorded.cookies.find((c) => c.name === "authlib.session-token")!
    expect(session.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" })
    expect(session.options.expires ?? session.options.maxAge).toBeDefined()
    expect(cookie).toContain("authlib.session-token=")
    expect(ev.headers.get("cache-control")).toBe("private, no-cache, no-store")
  })

  it("POST /auth/callback/password without the CSRF token is refused by core (the binding never skips the check)", async () => {
    const { auth } = setup()
    const { cookie } = await csrf(auth)
    const body = new URLSearchParams({ email: ada.email, password: "correct horse" })
    const ev = fakeEvent(`${ORIGIN}/auth/callback/password`, {
      method: "POST",
      cookie,
      body: body.toString(),
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    })
    const thrown = (await handle(auth, ev)) as Redirected
    expect(thrown.location).toContain("error=MissingCSRF")
    expect(ev.recorded.cookies.some((c) => c.name === "authlib.session-token")).toBe(false)
  })

  it("an unknown action under /auth gets core's 4xx JSON, not Qwik's page", async () => {
    const { auth } = setup()
    const ev = fakeEvent(`${ORIGIN}/auth/nope`)
    await handle(auth, ev)
    expect(ev.recorded.sent!.status).toBe(404)
    expect(await ev.recorded.sent!.json()).toMatchObject({ error: "UnknownAction" })
  })

  it("a configured basePath is honoured, and /auth is then an ordinary page", async () => {
    const { auth } = setup(testConfig({ basePath: "/api/auth" }))
    const moved = fakeEvent(`${ORIGIN}/api/auth/csrf`)
    await handle(auth, moved)
    expect(moved.recorded.sent!.status).toBe(200)
    const page = fakeEvent(`${ORIGIN}/auth/csrf`)
    await handle(auth, page)
    expect(page.recorded.sent).toBeUndefined()
    const lookalike = fakeEvent(`${ORIGIN}/api/authors`)
    await handle(auth, lookalike)
    expect(lookalike.recorded.sent).toBeUndefined()
  })
})

describe("configuration from the environment", () => {
  it("fills what the config leaves unset from ev.env (AUTH_SECRET), once per config object", async () => {
    const config = testConfig({ secret: undefined })
    const { auth } = setup(config)
    const ev = fakeEvent(`${ORIGIN}/auth/csrf`, { env: { AUTH_SECRET: "from-the-environment-0123456789abcdef" } })
    await handle(auth, ev)
    expect(ev.recorded.sent!.status).toBe(200)
    expect(config.secret).toBe("from-the-environment-0123456789abcdef")
    expect(config.basePath).toBe("/auth")
    const again = fakeEvent(`${ORIGIN}/auth/csrf`, { env: { AUTH_SECRET: "another-secret-0123456789abcdef0123" } })
    await handle(auth, again)
    expect(config.secret).toBe("from-the-environment-0123456789abcdef")
  })

  it("setEnvDefaults keeps values the config sets and takes the base path from WEBAUTH_URL", () => {
    const config = testConfig()
    setEnvDefaults({ get: (k: string) => ({ AUTH_SECRET: "ignored-0123456789abcdef0123456789", WEBAUTH_URL: "https://app.example/api/auth" })[k] }, config)
    expect(config.secret).toBe(SECRET)
    expect(config.basePath).toBe("/api/auth")
  })
})

describe("onRequest for other pages: the lazy session", () => {
  it("does not answer, and reads no session until something asks", async () => {
    let sessionCallbacks = 0
    const config = testConfig({
      callbacks: {
        session: ({ session }) => {
          sessionCallbacks++
          return session
        },
      },
    })
    const { auth, configCalls } = setup(config)
    const { cookie } = await signInThroughRoute(auth)
    const callsBefore = configCalls()
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie })
    expect(await handle(auth, ev)).toBeUndefined()
    expect(ev.recorded.sent).toBeUndefined()
    expect(ev.recorded.redirect).toBeUndefined()
    expect(sessionCallbacks).toBe(0)
    expect(configCalls()).toBe(callsBefore + 1)

    const first = await getSession(ev)
    const second = await getSession(ev)
    expect(first.data?.user).toMatchObject({ name: ada.name, email: ada.email })
    expect(second).toBe(first)
    expect(sessionCallbacks).toBe(1)
    expect(configCalls()).toBe(callsBefore + 1)
  })

  it("getSession resolves { cookie, data: null } when signed out, and the refreshed cookie when core re-issues one", async () => {
    const { auth } = setup(testConfig({ session: { updateAge: 0 } }))
    const anonymous = fakeEvent(`${ORIGIN}/`)
    await handle(auth, anonymous)
    expect(await getSession(anonymous)).toEqual({ cookie: [], data: null })

    const { cookie } = await signInThroughRoute(auth)
    const ev = fakeEvent(`${ORIGIN}/`, { cookie })
    await handle(auth, ev)
    const result = await getSession(ev)
    expect(result.data?.user?.email).toBe(ada.email)
    expect(result.cookie.some((line) => line.startsWith("authlib.session-token="))).toBe(true)
    expect(ev.recorded.cookies.map((c) => c.name)).toContain("authlib.session-token")
  })

  it("a tampered session cookie reads as signed out", async () => {
    const { auth } = setup()
    const { cookie } = await signInThroughRoute(auth)
    const tampered = cookie.replace(/authlib\.session-token=([^;]{10})/, "authlib.session-token=AAAAAAAAAA")
    const ev = fakeEvent(`${ORIGIN}/`, { cookie: tampered })
    await handle(auth, ev)
    expect((await getSession(ev)).data).toBeNull()
  })

  it("getSession without the plugin's onRequest says what is missing", async () => {
    await expect(getSession(fakeEvent(`${ORIGIN}/`))).rejects.toThrow(
      "getSession() found no authlib configuration for this request: export onRequest from QwikAuth$ in src/routes/plugin@auth.ts",
    )
  })

  it("a session route failure surfaces as Configuration, never as signed out", async () => {
    const { auth } = setup(testConfig({ secret: undefined, logger: { error: () => {} } }))
    const ev = fakeEvent(`${ORIGIN}/`, { cookie: "authlib.session-token=x" })
    await handle(auth, ev)
    await expect(getSession(ev)).rejects.toMatchObject({ type: "Configuration", code: "SESSION_ROUTE_FAILED" })
  })

  it("useSession yields the session, or null when signed out", async () => {
    const { auth } = setup()
    const anonymous = fakeEvent(`${ORIGIN}/`)
    expect(await runLoader(auth.useSession, anonymous)).toBeNull()
    const { cookie } = await signInThroughRoute(auth)
    const ev = fakeEvent(`${ORIGIN}/`, { cookie })
    await handle(auth, ev)
    expect(await runLoader(auth.useSession, ev)).toMatchObject({ user: { email: ada.email } })
  })
})
