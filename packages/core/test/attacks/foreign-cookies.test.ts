/**
 * Cookies that are not ours, or ours mangled: another app on the same site (or a sibling subdomain)
 * sets `promo=50%off`, and a browser would send it to every route. None of them may lock a user
 * out: foreign cookies are ignored whatever their encoding, and a badly encoded cookie of ours
 * reads as absent.
 */
import { describe, expect, it } from "vitest"
import { Client, config, setCookies } from "../helpers/harness.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"

const FOREIGN = "promo=50%off; theme=%E0%A4%A; _ga=GA1.1.123"

/** A client whose every request also carries `extra` cookies, as a browser on a shared site would. */
function withCookies(client: Client, extra: string): Client {
  const request = client.request.bind(client)
  client.request = (path, init = {}) => {
    const jar = [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ")
    const headers = new Headers(init.headers)
    if (!headers.has("cookie")) headers.set("cookie", jar ? `${jar}; ${extra}` : extra)
    return request(path, { ...init, headers })
  }
  return client
}

describe.each([
  ["jwt", () => config()],
  ["database", () => config({ adapter: memoryAdapter() })],
])("a badly encoded cookie of another app (%s sessions)", (_strategy, make) => {
  it("every route answers as usual: csrf, providers, pages, sign-in, session, sign-out", async () => {
    const client = withCookies(new Client(make()), FOREIGN)
    expect((await client.request("/auth/csrf")).status).toBe(200)
    expect((await client.request("/auth/providers")).status).toBe(200)
    expect((await client.request("/auth/signin")).status).toBe(200)
    expect((await client.request("/auth/signout")).status).toBe(200)
    const signIn = await client.signIn()
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).not.toContain("error=")
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
    const out = await client.post("/auth/signout")
    expect(out.status).toBe(302)
    expect(await client.session()).toBeNull()
  })

  it("sets nothing for the foreign cookies and never clears them", async () => {
    const client = withCookies(new Client(make()), FOREIGN)
    await client.signIn()
    const res = await client.post("/auth/signout")
    const names = setCookies(res).map((c) => c.name)
    expect(names).not.toContain("promo")
    expect(names).not.toContain("theme")
  })
})

describe("a badly encoded cookie of ours reads as absent", () => {
  it("a mangled session cookie: GET /session answers null with 200 and sign-in writes a fresh one", async () => {
    const adapter = memoryAdapter()
    const client = withCookies(new Client(config({ adapter })), "authlib.session-token=%E0%A4%A")
    const res = await client.request("/auth/session")
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(adapter.calls.filter((c) => c.method === "getSessionAndUser")).toEqual([])
    const signIn = await client.signIn()
    expect(setCookies(signIn).find((c) => c.name === "authlib.session-token")?.value).toMatch(/^[\w-]{22,}$/)
  })

  it("a mangled CSRF cookie: GET /csrf mints a new token and cookie, and the next POST passes", async () => {
    const client = new Client(config())
    const res = await client.request("/auth/csrf", { headers: { cookie: "authlib.csrf-token=abc%ZZ|def" } })
    expect(res.status).toBe(200)
    expect(setCookies(res).map((c) => c.name)).toEqual(["authlib.csrf-token"])
    const signIn = await client.signIn()
    expect(signIn.headers.get("location")).toBe("http://localhost:3000/")
  })

  it("a mangled CSRF cookie on a POST is a missing CSRF cookie (MissingCSRF), not a malformed request", async () => {
    const client = new Client(config())
    const token = await client.csrfToken()
    const res = await client.request("/auth/signout", { form: { csrfToken: token }, headers: { cookie: "authlib.csrf-token=%E0%A4%A" } })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toContain("error=MissingCSRF")
  })
})
