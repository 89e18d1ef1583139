/**
 * CSRF attempts the corpus in kernel/security/csrf.test.ts leaves out: method override, bodies whose
 * `csrfToken` is not a string, combined fetch-metadata headers, and a CSRF cookie tossed under
 * the unprefixed name onto an https deployment. Each leaves the session as it was.
 */
import { describe, expect, it } from "vitest"
import { Client, config, setCookies } from "../helpers/harness.js"

const HTTPS = "https://app.example"
const signinError = (origin: string) => `${origin}/auth/signin?error=MissingCSRF`

async function signedIn(origin?: string): Promise<Client> {
  const client = new Client(config(), origin)
  await client.signIn()
  return client
}

const sessionCleared = (res: Response) => setCookies(res).some((c) => c.name.includes("session-token") && c.maxAge === 0)

describe("sign-out cannot be forced by another site", () => {
  it("a GET with method-override headers or parameters only shows the confirm page", async () => {
    const client = await signedIn()
    const csrfToken = await client.csrfToken()
    const res = await client.request(`/auth/signout?_method=POST&csrfToken=${csrfToken}`, {
      headers: { "x-http-method-override": "POST", "x-method-override": "POST" },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toContain("text/html")
    expect(sessionCleared(res)).toBe(false)
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
  })

  it("a POST whose csrfToken is an array, an object or the whole cookie value is refused", async () => {
    const client = await signedIn()
    const token = await client.csrfToken()
    const cookieValue = client.jar.get("authlib.csrf-token")!
    for (const csrfToken of [[token], { value: token }, cookieValue, `${token} `]) {
      const res = await client.request("/auth/signout", { json: { csrfToken } })
      expect(res.headers.get("location")).toBe(signinError("http://localhost:3000"))
      expect(sessionCleared(res)).toBe(false)
    }
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
  })

  it("an empty text/plain POST (a no-preflight cross-site fetch) is MissingCSRF, not a crash", async () => {
    const client = await signedIn()
    const res = await client.request("/auth/signout", { method: "POST", headers: { "content-type": "text/plain", "x-no-origin": "1" }, body: "" })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(signinError("http://localhost:3000"))
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
  })

  for (const site of ["same-origin, cross-site", "cross-site, same-origin", "Same-Site", "unknown"]) {
    it(`Sec-Fetch-Site ${JSON.stringify(site)} without Origin is refused`, async () => {
      const client = await signedIn()
      const csrfToken = await client.csrfToken()
      const res = await client.request("/auth/signout", { headers: { "x-no-origin": "1", "sec-fetch-site": site }, form: { csrfToken } })
      expect(res.headers.get("location")).toBe(signinError("http://localhost:3000"))
      expect(sessionCleared(res)).toBe(false)
    })
  }
})

describe("CSRF cookie tossing on https", () => {
  it("a valid pair planted under the unprefixed name (Domain= from a sibling) is ignored: only __Host- counts", async () => {
    // The attacker mints a genuine pair from the same deployment over http (same secret).
    const attacker = new Client(config())
    const attackerToken = await attacker.csrfToken()
    const planted = attacker.jar.get("authlib.csrf-token")!
    const victim = await signedIn(HTTPS)
    const session = [...victim.jar].filter(([k]) => k.includes("session-token")).map(([k, v]) => `${k}=${v}`)
    const cookie = [...session, `authlib.csrf-token=${planted}`].join("; ")
    const res = await victim.request("/auth/signout", { headers: { cookie }, form: { csrfToken: attackerToken } })
    expect(res.headers.get("location")).toBe(signinError(HTTPS))
    expect(sessionCleared(res)).toBe(false)
  })
})
