/**
 * Rate limits through the binding, against the real core: the peer address Qwik City reports
 * (`ev.clientConn.ip`) keys per-client limits, and a refused sign-in comes back in the binding's
 * failure shape (429, `Retry-After`, a sentence in `formErrors`), from `useSignIn` and `signIn()`.
 */
import type { Adapter, VerificationToken } from "@authlib/core"
import { MemoryRateLimitStore } from "@authlib/core"
import { describe, expect, it } from "vitest"
import { RateLimited, rateLimitedMessage, signIn } from "../src/index.js"
import { ada, ORIGIN, testConfig } from "./harness/config.js"
import { fakeEvent, runAction } from "./harness/fake-event.js"
import { actionEvent, handle, outcome, setup } from "./harness/setup.js"

describe("rate limits through the binding", () => {
  it("onRequest hands core the peer address: CSRF mints are counted per client", async () => {
    const { auth } = setup(testConfig({ rateLimit: { store: new MemoryRateLimitStore(), csrf: { perClient: { limit: 2, window: 60 } } } }))
    const mint = async (clientAddress: string) => {
      const ev = fakeEvent(`${ORIGIN}/auth/csrf`, { clientAddress })
      await handle(auth, ev)
      return ev.recorded.sent!
    }
    expect((await mint("203.0.113.5")).status).toBe(200)
    expect((await mint("203.0.113.5")).status).toBe(200)
    const refused = await mint("203.0.113.5")
    expect(refused.status).toBe(429)
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/)
    expect((await mint("203.0.113.6")).status).toBe(200)
  })

  it("useSignIn with credentials: the 6th wrong password is a 429 form error with Retry-After", async () => {
    const { auth } = setup()
    const attempt = async () => {
      const ev = await actionEvent(auth)
      const result = await outcome(runAction(auth.useSignIn, ev, { providerId: "password", options: { email: ada.email, password: "nope" } }))
      return { ev, result }
    }
    for (let i = 0; i < 5; i++) expect((await attempt()).result).toBeInstanceOf(Error)
    const { ev, result } = await attempt()
    expect(ev.recorded.status).toBe(429)
    expect(ev.headers.get("retry-after")).toMatch(/^\d+$/)
    expect(result).toEqual({ failed: true, fieldErrors: {}, formErrors: [expect.stringMatching(/^Too many attempts\. Please try again in \d+ seconds\.$/)] })
  })

  it("useSignIn with e-mail: a second link within the cooldown is a 429 form error; one mail is sent", async () => {
    const tokens: VerificationToken[] = []
    const adapter: Adapter = {
      createVerificationToken: (t) => (tokens.push(t), t),
      useVerificationToken: () => null,
      getUserByEmail: () => null,
      createUser: (u) => ({ ...u, id: "u1" }),
      getUserByAccount: () => null,
      linkAccount: (a) => a,
      updateUser: (u) => u as never,
    }
    const sent: string[] = []
    const email = { id: "email", name: "E-mail", type: "email" as const, sendVerificationRequest: ({ identifier }: { identifier: string }) => void sent.push(identifier) }
    const { auth } = setup(testConfig({ adapter, session: { strategy: "jwt" }, providers: [email] }))
    const first = await actionEvent(auth)
    await outcome(runAction(auth.useSignIn, first, { providerId: "email", options: { email: "grace@example.test" } }))
    const second = await actionEvent(auth)
    const result = await outcome(runAction(auth.useSignIn, second, { providerId: "email", options: { email: "grace@example.test" } }))
    expect(second.recorded.status).toBe(429)
    expect((result as { formErrors: string[] }).formErrors[0]).toMatch(/^Too many attempts/)
    expect(sent).toEqual(["grace@example.test"])
  })

  it("signIn() in the app's own action throws RateLimited, with retryAfter and status", async () => {
    const { auth } = setup(testConfig({ rateLimit: { store: new MemoryRateLimitStore(), credentials: { perIdentifier: { limit: 0, window: 90 } } } }))
    const ev = await actionEvent(auth)
    const err = await outcome(signIn(ev, { providerId: "password", options: { email: ada.email, password: "correct horse" } }))
    expect(err).toBeInstanceOf(RateLimited)
    expect((err as RateLimited).retryAfter).toBe(90)
    expect(rateLimitedMessage(err as RateLimited)).toBe("Too many attempts. Please try again in about 2 minutes.")
  })

  it("a failing store fails closed: 503 form error saying sign-in is unavailable", async () => {
    const broken = { hit: () => Promise.reject(new Error("down")), reset: () => undefined }
    const { auth } = setup(testConfig({ rateLimit: { store: broken }, logger: { error: () => {} } }))
    const ev = await actionEvent(auth)
    const result = await outcome(runAction(auth.useSignIn, ev, { providerId: "password", options: { email: ada.email, password: "correct horse" } }))
    expect(ev.recorded.status).toBe(503)
    expect((result as { formErrors: string[] }).formErrors).toEqual(["Signing in is unavailable right now. Please try again in a minute."])
  })
})
