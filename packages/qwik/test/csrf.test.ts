/**
 * Core's CSRF check applies to the actions too: the in-process POST carries the browser's own
 * `Origin` and `Sec-Fetch-Site`, so an action posted from another site signs no one in and out,
 * even where Qwik City's origin check is off (`checkOrigin: false`) or skipped (non-form bodies).
 */
import { describe, expect, it } from "vitest"
import { getSession } from "../src/index.js"
import { ada, ORIGIN } from "./harness/config.js"
import { browserCookies, fakeEvent, Redirected, runAction, type FakeEvent } from "./harness/fake-event.js"
import { actionEvent, handle, outcome, setup, signInThroughRoute } from "./harness/setup.js"

const password = { providerId: "password", options: { email: ada.email, password: "correct horse" } }
const sessionCookies = (ev: FakeEvent) => ev.recorded.cookies.filter((c) => c.name === "authlib.session-token")

describe("useSignIn posted from another site", () => {
  it("with Origin https://evil.example: core refuses (MissingCSRF, CSRF_ORIGIN_MISMATCH), no session cookie, no redirect", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth, { origin: "https://evil.example" })
    const thrown = await outcome(runAction(auth.useSignIn, ev, password))
    expect(thrown).toMatchObject({ type: "MissingCSRF", code: "CSRF_ORIGIN_MISMATCH" })
    expect(ev.recorded.redirect).toBeUndefined()
    expect(sessionCookies(ev)).toEqual([])
    expect((await getSession(ev)).data).toBeNull()
  })

  it("with Sec-Fetch-Site cross-site and no Origin: core refuses (CSRF_CROSS_SITE), no session cookie", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth, { "sec-fetch-site": "cross-site" })
    const thrown = await outcome(runAction(auth.useSignIn, ev, password))
    expect(thrown).toMatchObject({ type: "MissingCSRF", code: "CSRF_CROSS_SITE" })
    expect(sessionCookies(ev)).toEqual([])
  })

  it("with a same-site Origin but Sec-Fetch-Site same-site (a sibling subdomain's page): refused by Origin", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth, { origin: "http://other.app.test", "sec-fetch-site": "same-site" })
    expect(await outcome(runAction(auth.useSignIn, ev, password))).toMatchObject({ code: "CSRF_ORIGIN_MISMATCH" })
    expect(sessionCookies(ev)).toEqual([])
  })

  it("an OAuth sign-in from another site goes back to the sign-in page with error=MissingCSRF: no authorization redirect, no PKCE cookie", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth, { origin: "https://evil.example" })
    const thrown = (await outcome(runAction(auth.useSignIn, ev, { providerId: "idp" }))) as Redirected
    expect(thrown).toBeInstanceOf(Redirected)
    const url = new URL(thrown.location)
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/signin`)
    expect(url.searchParams.get("error")).toBe("MissingCSRF")
    expect(ev.recorded.cookies.map((c) => c.name)).not.toContain("authlib.pkce.code_verifier")
  })
})

describe("useSignOut posted from another site", () => {
  it("is refused by core (to the sign-in page with error=MissingCSRF) and leaves the session in place", async () => {
    const { auth } = setup()
    const { cookie } = await signInThroughRoute(auth)
    const ev = await actionEvent(auth, { origin: "https://evil.example" }, cookie)
    const thrown = await outcome(runAction(auth.useSignOut, ev, { redirectTo: "/bye" }))
    expect(thrown).toEqual(new Redirected(303, `${ORIGIN}/auth/signin?error=MissingCSRF`))
    expect((await getSession(ev)).data?.user?.email).toBe(ada.email)
    expect(sessionCookies(ev).filter((c) => c.options.maxAge === 0)).toEqual([])
    const next = fakeEvent(`${ORIGIN}/account/`, { cookie })
    await handle(auth, next)
    expect((await getSession(next)).data?.user?.email).toBe(ada.email)
  })
})

describe("same-origin actions still work with only fetch metadata", () => {
  it("no Origin, Sec-Fetch-Site same-origin: signs in (the binding adds no Origin of its own)", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth, { "sec-fetch-site": "same-origin" })
    expect(await outcome(runAction(auth.useSignIn, ev, password))).toEqual(new Redirected(303, "/account/"))
    expect(sessionCookies(ev)).toHaveLength(1)
  })
})

describe("behind a TLS-terminating proxy (trustHost, X-Forwarded-Proto https, app URL http)", () => {
  it("the action's in-process calls see the https origin: __Secure- session cookie, accepted https Origin, session readable", async () => {
    const { auth } = setup()
    const proxy = { "x-forwarded-proto": "https", "x-forwarded-host": "app.test" }
    const ev = await actionEvent(auth, { origin: "https://app.test", ...proxy })
    const input = { ...password, redirectTo: "https://app.test/account/" }
    expect(await outcome(runAction(auth.useSignIn, ev, input))).toEqual(new Redirected(303, "https://app.test/account/"))
    const names = ev.recorded.cookies.map((c) => c.name)
    expect(names).toContain("__Secure-authlib.session-token")
    expect(names).not.toContain("authlib.session-token")
    const next = fakeEvent(`${ORIGIN}/account/`, { cookie: browserCookies("", ev), headers: proxy })
    await handle(auth, next)
    expect((await getSession(next)).data?.user?.email).toBe(ada.email)
  })
})
