/**
 * A rate limit met by a person on the sign-in page: the form they submitted (a POST the browser
 * sends as a page navigation, `Sec-Fetch-Mode: navigate`) goes back to the sign-in page, which says
 * so above the forms, instead of a separate 429 page at the callback URL. Scripts
 * (`X-Auth-Return-Redirect: 1`) keep the JSON 429 with `Retry-After`; other callers the 429 page.
 */
import { describe, expect, it } from "vitest"
import { Client, config, credentials, ORIGIN } from "../../helpers/harness.js"
import { MemoryRateLimitStore, type AuthConfig } from "../../../src/index.js"
import { emailProvider } from "../../capabilities/email/helpers.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"

const NAVIGATION = { "sec-fetch-mode": "navigate", "sec-fetch-site": "same-origin", "sec-fetch-dest": "document" }

function limited(over: Partial<AuthConfig> = {}): Client {
  return new Client(config({
    providers: [credentials()],
    rateLimit: { store: new MemoryRateLimitStore(), credentials: { perIdentifier: { limit: 1, window: 60 }, perClient: false } },
    ...over,
  }), ORIGIN, "203.0.113.7")
}

/** Two wrong passwords for alice; the second is over the limit of one. */
async function overTheLimit(client: Client, headers: Record<string, string>): Promise<Response> {
  await client.post("/auth/callback/credentials", { username: "alice", password: "nope" }, { headers })
  return client.post("/auth/callback/credentials", { username: "alice", password: "nope" }, { headers })
}

describe("POST /auth/callback/credentials over the limit", () => {
  it("from the sign-in page's form: back to the sign-in page with error=RateLimited, which shows the message", async () => {
    const client = limited()
    const res = await overTheLimit(client, NAVIGATION)
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: "RateLimited", code: "LIMIT_REACHED" })
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0)
    const page = await (await client.request(location.pathname + location.search)).text()
    expect(page).toContain("There have been too many attempts. Please wait a little, then try again.")
    expect(page).not.toContain("LIMIT_REACHED")
  })

  it("to a custom sign-in page when one is configured", async () => {
    const res = await overTheLimit(limited({ pages: { signIn: "/login" } }), NAVIGATION)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/login?error=RateLimited&code=LIMIT_REACHED`)
  })

  it("from a script (X-Auth-Return-Redirect: 1), even one that navigates: 429 JSON with Retry-After", async () => {
    const res = await overTheLimit(limited(), { ...NAVIGATION, "x-auth-return-redirect": "1" })
    expect(res.status).toBe(429)
    expect(res.headers.get("retry-after")).not.toBeNull()
    expect(await res.json()).toMatchObject({ error: "RateLimited", code: "LIMIT_REACHED" })
  })

  it("from a client that is no page navigation (fetch, curl): 429 and the error page, as before", async () => {
    const res = await overTheLimit(limited(), { "sec-fetch-mode": "cors" })
    expect(res.status).toBe(429)
    expect(res.headers.get("retry-after")).not.toBeNull()
    expect(await res.text()).toContain("Too many attempts")
  })
})

describe("POST /auth/signin/email over the limit, from the sign-in page's form", () => {
  it("goes back to the sign-in page with error=RateLimited", async () => {
    const client = new Client(config({ adapter: memoryAdapter(), providers: [emailProvider({ sent: [] })], rateLimit: { store: new MemoryRateLimitStore() } }), ORIGIN, "203.0.113.8")
    const send = () => client.post("/auth/signin/email", { email: "jane@example.com" }, { headers: NAVIGATION })
    expect((await send()).headers.get("location")).toContain("/auth/verify-request")
    const res = await send()
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=RateLimited&code=LIMIT_REACHED`)
  })
})
