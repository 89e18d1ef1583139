/**
 * E-mail sign-in under attack: mail on GET, addresses that are not strings, a link carried to
 * another e-mail provider, an address swapped under a valid token, and a tossed callback-url
 * cookie. Nothing is sent, stored or signed in that the mailbox owner did not ask for.
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../src/index.js"
import { Client, config, ORIGIN } from "../helpers/harness.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"
import { emailProvider, emailSetup, followLink, formFields, requestLink, type Outbox } from "../capabilities/email/helpers.js"

describe("requesting a link", () => {
  it("GET /auth/signin/email?email=... (a prefetch, an <img>) only renders the page: no token, no mail", async () => {
    const { client, adapter, outbox } = emailSetup()
    const res = await client.request("/auth/signin/email?email=jane@example.com&csrfToken=x")
    expect(res.status).toBe(200)
    expect(outbox.sent).toEqual([])
    expect(adapter.writes()).toEqual([])
  })

  for (const email of [["jane@example.com"], { toString: "jane@example.com" }, 42, null, "jane@example.com,eve@evil.example"]) {
    it(`a JSON body with email ${JSON.stringify(email)} is refused: nothing stored or sent`, async () => {
      const { client, adapter, outbox } = emailSetup()
      const csrfToken = await client.csrfToken()
      const res = await client.request("/auth/signin/email", { json: { csrfToken, email } })
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toContain("/auth/signin?error=EmailSignInError")
      expect(outbox.sent).toEqual([])
      expect(adapter.writes()).toEqual([])
    })
  }
})

/** Two e-mail providers on one adapter; "staff" refuses everyone its signIn callback does not know. */
function twoProviders(staffSecret?: string) {
  const outbox: Outbox = { sent: [] }
  const adapter = memoryAdapter()
  const cfg: AuthConfig = config({
    adapter,
    providers: [emailProvider(outbox), emailProvider(outbox, { id: "staff", name: "Staff", ...(staffSecret ? { secret: staffSecret } : {}) })],
    callbacks: { signIn: ({ account }) => account?.provider !== "staff" || account.providerAccountId.endsWith("@corp.example") },
  })
  return { client: new Client(cfg), adapter, outbox }
}

describe("a link used somewhere it was not sent for", () => {
  it("a link of provider email used on callback/staff is judged by staff's signIn policy: AccessDenied, no session", async () => {
    const { client, adapter, outbox } = twoProviders()
    await requestLink(client, "jane@example.com")
    const link = new URL(outbox.sent[0]!.url)
    const { done } = await followLink(client, `${ORIGIN}/auth/callback/staff${link.search}`)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(adapter.sessions.size).toBe(0)
    expect(adapter.accounts).toEqual([])
  })

  it("with a provider secret of its own, another provider's link is unknown there (Verification) and stays usable", async () => {
    const { client, adapter, outbox } = twoProviders("staff-only-secret-0123456789-0123456789")
    await requestLink(client, "jane@example.com")
    const link = new URL(outbox.sent[0]!.url)
    const { done } = await followLink(client, `${ORIGIN}/auth/callback/staff${link.search}`)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(adapter.tokens).toHaveLength(1)
    expect((await followLink(client, link.href)).done.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(adapter.sessions.size).toBe(1)
  })

  it("jane's token submitted with eve's address signs nobody in, and jane's link still works", async () => {
    const { client, adapter, outbox } = emailSetup()
    await requestLink(client, "jane@example.com")
    await requestLink(client, "eve@evil.example")
    const jane = new URL(outbox.sent[0]!.url)
    const page = await client.request(`${jane.pathname}${jane.search}`)
    const fields = { ...formFields(await page.text()), email: "eve@evil.example" }
    const res = await client.request(jane.pathname, { method: "POST", form: fields })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(adapter.sessions.size).toBe(0)
    expect((await followLink(client, jane.href)).done.headers.get("location")).toBe(`${ORIGIN}/`)
    expect([...adapter.users.values()].map((u) => u.email)).toEqual(["jane@example.com"])
  })
})

describe("where a link lands", () => {
  it("a callback-url cookie tossed onto the confirm page is re-checked: the form carries the origin", async () => {
    const { client, outbox } = emailSetup()
    await requestLink(client, "jane@example.com")
    const link = new URL(outbox.sent[0]!.url)
    link.searchParams.delete("callbackUrl")
    const own = [...client.jar].filter(([k]) => k !== "authlib.callback-url")
    const cookie = own.map(([k, v]) => `${k}=${v}`).concat("authlib.callback-url=https%3A%2F%2Fevil.example%2F").join("; ")
    const page = await client.request(`${link.pathname}${link.search}`, { headers: { cookie } })
    expect(formFields(await page.text()).callbackUrl).toBe(ORIGIN)
  })
})
