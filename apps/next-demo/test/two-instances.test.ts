/**
 * Two `next start` processes of the demo behind one PostgreSQL database (as behind a load balancer):
 * a session started on one is the session on the other, and a revocation through authlib's session
 * management server functions on one is seen by the other on its very next request (database
 * sessions: the record is gone; JWT sessions: the user's session epoch, checked on every request).
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { startDemo, type DemoInstance } from "./harness/app.js"
import { ADA, launchBrowser, signInWithForm, type DemoBrowser } from "./harness/browser.js"

describe.each(["database", "jwt"] as const)("two instances, %s sessions", (strategy) => {
  let a: DemoInstance
  let b: DemoInstance
  let laptop: DemoBrowser
  let phone: DemoBrowser

  beforeAll(async () => {
    const databaseUrl = inject("databaseUrl")
    // One after the other: both apply the schema on start.
    a = await startDemo({ strategy, databaseUrl })
    b = await startDemo({ strategy, databaseUrl })
    ;[laptop, phone] = await Promise.all([launchBrowser(), launchBrowser()])
  })
  afterAll(async () => {
    await Promise.all([laptop?.close(), phone?.close()])
    await Promise.all([a?.stop(), b?.stop()])
  })

  test("a session started on one instance is the session on the other", async () => {
    const page = await laptop.newPage()
    await signInWithForm(page, a.url, "/protected")
    // Cookies do not depend on the port: the same browser session reaches the second instance.
    await page.goto(`${b.url}/protected`)
    await expect(page.textContent("#protected-user")).resolves.toBe(ADA.email)
  })

  test("ending the other sessions on one instance signs the other device out on its next request to the other", async () => {
    const phonePage = await phone.newPage()
    await signInWithForm(phonePage, b.url, "/account")
    await phonePage.waitForSelector("#end-others")
    const laptopPage = laptop.context.pages()[0]!
    await laptopPage.goto(`${a.url}/protected`)
    await expect(laptopPage.textContent("#protected-user")).resolves.toBe(ADA.email)

    // The phone, on instance B, ends every other session (revokeOtherSessions / the user's epoch).
    // A server action is a POST to the page: its answer means the revocation is done.
    const action = phonePage.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/account")
    await phonePage.click("#end-others")
    expect((await action).status()).toBe(200)

    // The laptop's very next request, to instance A, is signed out: the proxy sends it to sign in.
    await laptopPage.goto(`${a.url}/protected`)
    expect(new URL(laptopPage.url()).pathname).toBe("/sign-in")
    await laptopPage.goto(`${b.url}/`)
    await expect(laptopPage.textContent("#server-status")).resolves.toBe("signed out")
    // The phone itself is still signed in, on both instances.
    await phonePage.goto(`${a.url}/protected`)
    await expect(phonePage.textContent("#protected-user")).resolves.toBe(ADA.email)
  })
})
