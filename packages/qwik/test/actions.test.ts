import { CredentialsSignin } from "@authlib/core"
import { describe, expect, it } from "vitest"
import { getSession, signIn } from "../src/index.js"
import { ada, ORIGIN, testConfig, WrongPassword } from "./harness/config.js"
import { browserCookies, fakeEvent, Redirected, runAction } from "./harness/fake-event.js"
import { actionEvent, handle, outcome, setup, signInThroughRoute } from "./harness/setup.js"

describe("useSignIn input validation (zod$)", () => {
  it("rejects wrong types with { failed: true, fieldErrors, formErrors } under the four spec keys, status 400", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const result = (await runAction(auth.useSignIn, ev, {
      providerId: 5,
      redirectTo: ["/x"],
      options: "not an object",
      authorizationParams: 7,
    })) as { failed: boolean; fieldErrors: Record<string, string>; formErrors: string[] }
    expect(result.failed).toBe(true)
    expect(Object.keys(result.fieldErrors).sort()).toEqual(["authorizationParams", "options", "providerId", "redirectTo"])
    expect(result.fieldErrors.providerId).toBe("Expected string, received number")
    expect(result.formErrors).toEqual([])
    expect(ev.recorded.status).toBe(400)
    expect(ev.recorded.redirect).toBeUndefined()
    expect(ev.recorded.cookies).toEqual([])
  })

  it("reports a non-string options.redirectTo under options, and an authorizationParams record of non-strings", async () => {
    const { auth } = setup()
    const result = (await runAction(auth.useSignIn, await actionEvent(auth), {
      providerId: "idp",
      options: { redirectTo: 42 },
      authorizationParams: { prompt: 1 },
    })) as { fieldErrors: Record<string, string> }
    expect(result.fieldErrors).toEqual({
      options: '"options.redirectTo" must be a string',
      authorizationParams: expect.any(String),
    })
  })

  it("useSignOut validates exactly redirectTo", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const result = (await runAction(auth.useSignOut, ev, { redirectTo: 1 })) as { failed: boolean; fieldErrors: Record<string, string>; formErrors: string[] }
    expect(result).toEqual({ failed: true, fieldErrors: { redirectTo: "Expected string, received number" }, formErrors: [] })
    expect(ev.recorded.status).toBe(400)
  })
})

describe("useSignIn with a credentials provider (id 'password', type credentials)", () => {
  it("signs in: CSRF token fetched server-side, session cookie set, 303 to redirectTo as a path", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const thrown = await outcome(
      runAction(auth.useSignIn, ev, { providerId: "password", options: { email: ada.email, password: "correct horse" }, redirectTo: `${ORIGIN}/welcome?x=1` }),
    )
    expect(thrown).toEqual(new Redirected(303, "/welcome?x=1"))
    const names = ev.recorded.cookies.map((c) => c.name)
    expect(names).toContain("authlib.csrf-token")
    expect(names).toContain("authlib.session-token")
    // The same request now reads the new session (the cached read was dropped).
    expect((await getSession(ev)).data?.user?.email).toBe(ada.email)
    const next = fakeEvent(`${ORIGIN}/welcome`, { cookie: browserCookies("", ev) })
    await handle(auth, next)
    expect((await getSession(next)).data?.user).toMatchObject({ name: ada.name, email: ada.email })
  })

  it("a wrong password throws the provider's CredentialsSignin to the caller with its code: no redirect, no session", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const thrown = await outcome(runAction(auth.useSignIn, ev, { providerId: "password", options: { email: ada.email, password: "wrong" } }))
    expect(thrown).toBeInstanceOf(WrongPassword)
    expect(thrown).toBeInstanceOf(CredentialsSignin)
    expect(thrown).toMatchObject({ type: "CredentialsSignin", code: "wrong_password" })
    expect(ev.recorded.redirect).toBeUndefined()
    expect(ev.recorded.cookies.map((c) => c.name)).not.toContain("authlib.session-token")
  })

  it("an unknown user (authorize returns null) throws CredentialsSignin with core's default code", async () => {
    const { auth } = setup()
    const thrown = await outcome(runAction(auth.useSignIn, await actionEvent(auth), { providerId: "password", options: { email: "eve@example.test", password: "x" } }))
    expect(thrown).toMatchObject({ type: "CredentialsSignin", code: "credentials" })
  })

  it("a tampered CSRF cookie from the browser is not trusted: core mints a fresh one and the sign-in uses it", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth, undefined, "authlib.csrf-token=forged%7Cdeadbeef")
    const thrown = await outcome(runAction(auth.useSignIn, ev, { providerId: "password", options: { email: ada.email, password: "correct horse" } }))
    expect(thrown).toBeInstanceOf(Redirected)
    const csrfCookie = ev.recorded.cookies.find((c) => c.name === "authlib.csrf-token")!
    expect(csrfCookie.value).not.toContain("forged")
  })

  it("without redirectTo, comes back to the current page without Qwik's qaction parameter", async () => {
    const { auth } = setup()
    const thrown = await outcome(runAction(auth.useSignIn, await actionEvent(auth), { providerId: "password", options: { email: ada.email, password: "correct horse" } }))
    expect(thrown).toEqual(new Redirected(303, "/account/"))
  })
})

describe("useSignIn with other providers, and without one", () => {
  it("OAuth: redirects to the authorization endpoint with PKCE and the caller's authorizationParams; the PKCE cookie is set", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const thrown = (await outcome(runAction(auth.useSignIn, ev, { providerId: "idp", authorizationParams: { prompt: "login", client_id: "evil" } }))) as Redirected
    expect(thrown).toBeInstanceOf(Redirected)
    expect(thrown.status).toBe(303)
    const url = new URL(thrown.location)
    expect(url.origin + url.pathname).toBe("https://idp.test/authorize")
    expect(url.searchParams.get("prompt")).toBe("login")
    expect(url.searchParams.get("client_id")).toBe("client-1")
    expect(url.searchParams.get("code_challenge_method")).toBe("S256")
    expect(ev.recorded.cookies.map((c) => c.name)).toContain("authlib.pkce.code_verifier")
  })

  it("without providerId, goes to core's sign-in page (absolute: it is no Qwik route) with the callback URL", async () => {
    const { auth } = setup()
    const thrown = await outcome(runAction(auth.useSignIn, await actionEvent(auth), { redirectTo: "/after" }))
    expect(thrown).toEqual(new Redirected(303, `${ORIGIN}/auth/signin?callbackUrl=%2Fafter`))
  })

  it("from Qwik City's client (a q-data.json action request), a URL outside the app goes back in Location on a 200 answer", async () => {
    const { auth } = setup()
    const ev = fakeEvent(`${ORIGIN}/account/q-data.json?qaction=abc123`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    })
    await handle(auth, ev)
    expect(await runAction(auth.useSignIn, ev, { redirectTo: "/after" })).toBeUndefined()
    expect(ev.recorded.redirect).toBeUndefined()
    expect(ev.recorded.status).toBe(200)
    expect(ev.headers.get("location")).toBe(`${ORIGIN}/auth/signin?callbackUrl=%2Fafter`)
  })

  it("from Qwik City's client, an app page is still a thrown 303 (Qwik turns it into a client-side navigation)", async () => {
    const { auth } = setup(testConfig({ pages: { signIn: "/login" } }))
    const ev = fakeEvent(`${ORIGIN}/account/q-data.json?qaction=abc123`, { method: "POST", headers: { origin: ORIGIN } })
    await handle(auth, ev)
    expect(await outcome(runAction(auth.useSignIn, ev, { redirectTo: "/after" }))).toEqual(new Redirected(303, "/login?callbackUrl=%2Fafter"))
  })

  it("with a custom sign-in page (an app route), goes there by path", async () => {
    const { auth } = setup(testConfig({ pages: { signIn: "/login" } }))
    const thrown = await outcome(runAction(auth.useSignIn, await actionEvent(auth), { redirectTo: "/after" }))
    expect(thrown).toEqual(new Redirected(303, "/login?callbackUrl=%2Fafter"))
  })

  it("an unknown provider id is invalid input: { failed: true } with a providerId field error, status 400, core not called", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const result = await runAction(auth.useSignIn, ev, { providerId: "nope" })
    expect(result).toEqual({ failed: true, fieldErrors: { providerId: 'Unknown provider "nope"' }, formErrors: [] })
    expect(ev.recorded.status).toBe(400)
    expect(ev.recorded.cookies.map((c) => c.name)).not.toContain("authlib.csrf-token")
  })

  it("signIn() from your own action throws InvalidProvider for an unknown id", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    await expect(signIn(ev, { providerId: "../../etc" })).rejects.toMatchObject({ type: "InvalidProvider", code: "UNKNOWN_PROVIDER" })
  })
})

describe("useSignOut", () => {
  it("clears the session cookie, redirects 303 to redirectTo, and the rest of the request sees no session", async () => {
    const { auth } = setup()
    const { cookie } = await signInThroughRoute(auth)
    const ev = await actionEvent(auth, undefined, cookie)
    expect((await getSession(ev)).data).not.toBeNull()
    const thrown = await outcome(runAction(auth.useSignOut, ev, { redirectTo: "/bye" }))
    expect(thrown).toEqual(new Redirected(303, "/bye"))
    const cleared = ev.recorded.cookies.find((c) => c.name === "authlib.session-token" && c.options.maxAge === 0)
    expect(cleared).toBeDefined()
    expect((await getSession(ev)).data).toBeNull()
    const next = fakeEvent(`${ORIGIN}/bye`, { cookie: browserCookies(cookie, ev) })
    await handle(auth, next)
    expect((await getSession(next)).data).toBeNull()
  })
})
