/**
 * The binding under attack: action inputs an attacker chooses (sizes, destinations, fields that
 * shadow the binding's own), and cross-site posts the existing CSRF tests do not cover. Whatever
 * the input, nobody is signed in or out by it and nobody is sent off-site.
 */
import { InvalidRequest } from "@authlib/core"
import { describe, expect, it } from "vitest"
import { getSession, signIn } from "../src/index.js"
import { ada, ORIGIN, testConfig } from "./harness/config.js"
import { Redirected, runAction, type FakeEvent } from "./harness/fake-event.js"
import { actionEvent, outcome, setup, signInThroughRoute } from "./harness/setup.js"

const named = (ev: FakeEvent, name: string) => ev.recorded.cookies.filter((c) => c.name === name)
/** More than core's 64 KiB body limit once form-encoded. */
const HUGE = "a".repeat(70_000)

describe("action input over core's body limit", () => {
  it("useSignIn (credentials): 413 failure shape; never the 303 to an unchecked redirectTo, no session", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const input = { providerId: "password", redirectTo: "https://evil.example/x", options: { email: ada.email, password: HUGE } }
    const result = await outcome(runAction(auth.useSignIn, ev, input))
    expect(result).toEqual({ failed: true, fieldErrors: {}, formErrors: [expect.stringContaining("larger than")] })
    expect(ev.recorded.status).toBe(413)
    expect(ev.recorded.redirect).toBeUndefined()
    expect(named(ev, "authlib.session-token")).toEqual([])
  })

  it("signIn(ev, input) from your own action throws InvalidRequest (413, BODY_TOO_LARGE) instead of redirecting", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const thrown = await outcome(signIn(ev, { providerId: "password", redirectTo: "https://evil.example/x", options: { email: ada.email, password: HUGE } }))
    expect(thrown).toBeInstanceOf(InvalidRequest)
    expect(thrown).toMatchObject({ code: "BODY_TOO_LARGE", status: 413 })
    expect(ev.recorded.redirect).toBeUndefined()
  })

  it("useSignIn (OAuth): 413 failure shape, no authorization redirect and no PKCE cookie", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const result = await outcome(runAction(auth.useSignIn, ev, { providerId: "idp", options: { padding: HUGE } }))
    expect(result).toMatchObject({ failed: true, formErrors: [expect.stringContaining("larger than")] })
    expect(ev.recorded.status).toBe(413)
    expect(ev.recorded.redirect).toBeUndefined()
    expect(named(ev, "authlib.pkce.code_verifier")).toEqual([])
  })

  it("useSignOut with a huge redirectTo: 413 failure shape and the session stays", async () => {
    const { auth } = setup()
    const { cookie } = await signInThroughRoute(auth)
    const ev = await actionEvent(auth, { origin: ORIGIN }, cookie)
    const result = await outcome(runAction(auth.useSignOut, ev, { redirectTo: `/${HUGE}` }))
    expect(result).toMatchObject({ failed: true, fieldErrors: {} })
    expect(ev.recorded.status).toBe(413)
    expect(named(ev, "authlib.session-token")).toEqual([])
    expect((await getSession(ev)).data?.user?.email).toBe(ada.email)
  })
})

describe("destinations an attacker chooses", () => {
  for (const redirectTo of ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
    it(`useSignIn (credentials) with redirectTo ${JSON.stringify(redirectTo)} signs in and lands on the app's root`, async () => {
      const { auth } = setup()
      const ev = await actionEvent(auth)
      const thrown = await outcome(runAction(auth.useSignIn, ev, { providerId: "password", redirectTo, options: { email: ada.email, password: "correct horse" } }))
      expect(thrown).toEqual(new Redirected(303, "/"))
    })
  }

  it("useSignOut with an off-site redirectTo signs out and lands on the app's root", async () => {
    const { auth } = setup()
    const { cookie } = await signInThroughRoute(auth)
    const ev = await actionEvent(auth, { origin: ORIGIN }, cookie)
    expect(await outcome(runAction(auth.useSignOut, ev, { redirectTo: "https://evil.example/bye" }))).toEqual(new Redirected(303, "/"))
    expect((await getSession(ev)).data).toBeNull()
  })

  it("options.callbackUrl and options.csrfToken cannot replace the binding's own fields", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth)
    const options = { email: ada.email, password: "correct horse", callbackUrl: "https://evil.example/x", csrfToken: "forged" }
    const thrown = await outcome(runAction(auth.useSignIn, ev, { providerId: "password", redirectTo: "/welcome", options }))
    expect(thrown).toEqual(new Redirected(303, "/welcome"))
  })
})

describe("cross-site posts the CSRF tests leave out", () => {
  it("Origin: null without fetch metadata (a sandboxed frame's form): refused, CSRF_ORIGIN_OPAQUE, no session", async () => {
    const { auth } = setup()
    const ev = await actionEvent(auth, { origin: "null" })
    const thrown = await outcome(runAction(auth.useSignIn, ev, { providerId: "password", options: { email: ada.email, password: "correct horse" } }))
    expect(thrown).toMatchObject({ type: "MissingCSRF", code: "CSRF_ORIGIN_OPAQUE" })
    expect(named(ev, "authlib.session-token")).toEqual([])
  })
})

describe("same-origin URLs that turn protocol-relative as a path", () => {
  // The pattern of many apps' own `redirect` callbacks: anything that starts with the base URL.
  const startsWithBase = testConfig({ callbacks: { redirect: ({ url, baseUrl }) => (url.startsWith(baseUrl) ? url : baseUrl) } })

  for (const redirectTo of [`${ORIGIN}//evil.example/x`, `${ORIGIN}/\\evil.example/x`, `${ORIGIN}/%2F/evil.example`]) {
    it(`redirectTo ${JSON.stringify(redirectTo)} never becomes a Location that leaves the site`, async () => {
      const { auth } = setup(startsWithBase)
      const ev = await actionEvent(auth)
      const thrown = (await outcome(runAction(auth.useSignIn, ev, { providerId: "password", redirectTo, options: { email: ada.email, password: "correct horse" } }))) as Redirected
      expect(thrown).toBeInstanceOf(Redirected)
      expect(thrown.location).not.toMatch(/^[/\\]{2}|^[a-z]+:/i)
      expect(new URL(thrown.location, ORIGIN).origin).toBe(ORIGIN)
    })
  }
})
