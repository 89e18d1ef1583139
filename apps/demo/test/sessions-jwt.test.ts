/**
 * JWT sessions (nothing stored) can still be ended: the account page says there is no list, and
 * "Sign out everywhere else" moves the user's session epoch on, so another device's cookie is
 * refused on its next request (the demo checks every request) while this browser, re-issued under
 * the new epoch, stays signed in; "Sign out everywhere" ends this one too. Another browser signed
 * out that way is told so on the next page it loads, once; a made-up cookie reads the same.
 */
import { describe, expect, it } from "vitest"
import { launchBrowser } from "./harness/browser.js"
import { otherDevice, sessionOf, signInWithPassword } from "./harness/devices.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo({ AUTH_SESSION_STRATEGY: "jwt" })

describe("the account page's sessions with JWT sessions", () => {
  it("signs the other device out at once and keeps this browser; then signs out everywhere", async () => {
    const origin = demo.server.origin
    const device = await otherDevice(origin)
    const other = await launchBrowser()
    try {
      const otherPage = await other.newPage()
      await signInWithPassword(otherPage, origin)
      const page = await demo.browser.newPage()
      await signInWithPassword(page, origin)
      await page.goto(`${origin}/account/`)
      const region = page.getByRole("region", { name: "Where you are signed in" })
      expect(await region.textContent()).toContain("nothing is stored, so there is no list")
      expect(await sessionOf(origin, device)).toMatchObject({ user: { email: "ada@example.com" } })

      await region.getByRole("button", { name: "Sign out everywhere else" }).click()
      await region.getByText("Your other sessions are signed out.").waitFor()
      expect(await sessionOf(origin, device)).toBeNull()
      await page.reload({ timeout: 30_000 })
      // Still on the account page (a refused token would have gone to the sign-in page); a loaded CI
      // machine has taken more than the default 10 s to render it.
      expect(new URL(page.url()).pathname).toBe("/account/")
      expect(await page.locator(".facts").textContent({ timeout: 30_000 })).toContain("ada@example.com")
      expect(await page.locator(".session-ended").count()).toBe(0)

      // The other browser's next page (the home page, open to anyone) says it was signed out, once.
      await otherPage.goto(`${origin}/`)
      expect(await otherPage.locator(".session-ended").textContent()).toBe(ENDED)
      expect(await otherPage.locator(".site-header").getByRole("link", { name: "Sign in", exact: true }).count()).toBe(1)
      await otherPage.reload()
      expect(await otherPage.locator(".session-ended").count()).toBe(0)
      // A cookie that never was a session gets the same words, and nothing more.
      await other.context.addCookies([{ name: "authlib.session-token", value: "a-guessed-value", url: origin }])
      await otherPage.reload()
      expect(await otherPage.locator(".session-ended").textContent()).toBe(ENDED)

      const again = await otherDevice(origin)
      await region.getByRole("button", { name: "Sign out everywhere", exact: true }).click()
      await page.waitForURL(`${origin}/sign-in/?signedOut=everywhere`)
      expect(await sessionOf(origin, again)).toBeNull()
      await page.goto(`${origin}/account/`)
      await page.waitForURL(/\/sign-in\//)
      await page.close()
    } finally {
      await other.close()
    }
  })

  it("a link's data prefetch still in flight when this browser signs the others out does not sign it out too", async () => {
    // Qwik City's Link fetches the linked page's loader data when the link shows. A fetch that left
    // with the token "Sign out everywhere else" then superseded reads as a revoked session, whose
    // answer clears the cookie: arriving after the action's answer, it would sign this browser out.
    // Every q-data GET is held here until the action has answered, the slowest a loaded server can be.
    const origin = demo.server.origin
    const page = await demo.browser.newPage()
    try {
      await signInWithPassword(page, origin)
      const held: Array<() => Promise<void>> = []
      await page.route(/\/q-data\.json/, async (route) => {
        // Only the account page's prefetches: the home page's were cancelled when it was left.
        if (route.request().method() !== "GET" || !route.request().headers().referer?.endsWith("/account/")) return route.continue()
        // Sent later as it left (its cookies then), with the Fetch Metadata Chromium gives a same-origin
        // fetch(): `route.fetch` sends it from outside the browser, and Chromium's own continuation
        // would read the jar again. Its answer reaches the page, Set-Cookie included, as the browser's.
        const cookie = (await page.context().cookies(origin)).map((c) => `${c.name}=${c.value}`).join("; ")
        const headers = { ...route.request().headers(), cookie, "sec-fetch-mode": "cors", "sec-fetch-site": "same-origin", "sec-fetch-dest": "empty" }
        held.push(async () => route.fulfill({ response: await route.fetch({ headers }) }))
      })
      await page.goto(`${origin}/account/`)
      const region = page.getByRole("region", { name: "Where you are signed in" })
      await region.getByRole("button", { name: "Sign out everywhere else" }).click()
      await region.getByText("Your other sessions are signed out.").waitFor()
      expect(held.length).toBeGreaterThan(0)
      await Promise.all(held.map((release) => release()))
      await page.unroute(/\/q-data\.json/)
      await page.reload({ timeout: 30_000 })
      expect(new URL(page.url()).pathname).toBe("/account/")
      expect(await page.locator(".facts").textContent({ timeout: 30_000 })).toContain("ada@example.com")
    } finally {
      await page.close()
    }
  })
})

const ENDED = "You were signed out: your session on this browser ended (signed out on another device, or it expired). Sign in again to continue."
