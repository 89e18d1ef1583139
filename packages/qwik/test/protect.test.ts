/**
 * `protectRoute()` as a layout's `onRequest`: signed-out requests go to the sign-in page with their
 * own path as `callbackUrl`; the sign-in page itself is never protected (no loop); a condition
 * refuses with 403 or sends to a page.
 */
import { describe, expect, it } from "vitest"
import { protectRoute } from "../src/index.js"
import { ORIGIN, testConfig } from "./harness/config.js"
import { Errored, fakeEvent, Redirected } from "./harness/fake-event.js"
import { handle, setup, signInThroughRoute } from "./harness/setup.js"

/** Runs the plugin's onRequest, then the layout's; returns what the layout threw. */
async function visit(auth: ReturnType<typeof setup>["auth"], path: string, guard: ReturnType<typeof protectRoute>, cookie = "") {
  const ev = fakeEvent(`${ORIGIN}${path}`, { cookie })
  await handle(auth, ev)
  try {
    await guard(ev)
    return undefined
  } catch (thrown) {
    return thrown
  }
}

describe("protectRoute", () => {
  it("sends a signed-out visitor to the sign-in page with the page as callbackUrl; lets a signed-in user through", async () => {
    const { auth } = setup()
    const guard = protectRoute()
    const thrown = await visit(auth, "/account/settings?tab=keys", guard)
    expect(thrown).toBeInstanceOf(Redirected)
    expect(thrown).toMatchObject({ status: 302, location: `/auth/signin?callbackUrl=${encodeURIComponent("/account/settings?tab=keys")}` })
    const { cookie } = await signInThroughRoute(auth)
    expect(await visit(auth, "/account/settings", guard, cookie)).toBeUndefined()
  })

  it("never protects the sign-in page itself, even under the protected layout (no redirect loop)", async () => {
    const { auth } = setup(testConfig({ pages: { signIn: "/account/login" } }))
    const guard = protectRoute()
    expect(await visit(auth, "/account/login", guard)).toBeUndefined()
    expect(await visit(auth, "/account", guard)).toMatchObject({ location: `/account/login?callbackUrl=${encodeURIComponent("/account")}` })
  })

  it("with `when`, refuses a signed-in user who fails it: 403, or the denied page", async () => {
    const { auth } = setup()
    const { cookie } = await signInThroughRoute(auth)
    const admins = protectRoute({ when: (s) => s.user?.email === "root@example.test" })
    expect(await visit(auth, "/admin", admins, cookie)).toEqual(new Errored(403, "Forbidden"))
    const withPage = protectRoute({ when: () => false, deniedPage: "/no-access" })
    expect(await visit(auth, "/admin", withPage, cookie)).toMatchObject({ status: 302, location: "/no-access" })
    expect(await visit(auth, "/no-access", withPage, cookie)).toBeUndefined()
    expect(await visit(auth, "/admin", protectRoute({ when: (s) => s.user?.name === "Ada Lovelace" }), cookie)).toBeUndefined()
  })

  it("a path that reads as another host is sent back as a plain path", async () => {
    const { auth } = setup()
    const thrown = await visit(auth, "//evil.example/x", protectRoute())
    expect((thrown as Redirected).location).toBe(`/auth/signin?callbackUrl=${encodeURIComponent("/evil.example/x")}`)
  })
})
