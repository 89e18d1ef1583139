import { describe, expect, it } from "vitest"
import { Client, config, ORIGIN, setCookies } from "../../helpers/harness.js"

/** A client holding a valid CSRF cookie, its token and its hash. */
async function minted() {
  const client = new Client(config())
  const token = await client.csrfToken()
  const [, hash] = client.jar.get("authlib.csrf-token")!.split("|")
  return { client, token, hash: hash! }
}

function signInWith(client: Client, cookie: string, csrfToken: string): Promise<Response> {
  return client.request("/auth/callback/credentials", {
    headers: { cookie: `authlib.csrf-token=${cookie}` },
    form: { csrfToken, username: "alice", password: "wonderland" },
  })
}

describe("the CSRF cookie must be exactly token|hash", () => {
  it("the minted pair itself signs in (control)", async () => {
    const { client, token, hash } = await minted()
    const res = await signInWith(client, `${token}|${hash}`, token)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
  })

  it.each([
    ["a third segment", (t: string, h: string) => `${t}|${h}|x`],
    ["an empty third segment", (t: string, h: string) => `${t}|${h}|`],
    ["no token", (_: string, h: string) => `|${h}`],
    ["no hash", (t: string) => `${t}|`],
    ["no separator", (t: string, h: string) => `${t}${h}`],
    ["the hash twice", (t: string, h: string) => `${t}|${h}|${h}`],
    ["the hash of another token", (_: string, h: string) => `other|${h}`],
  ])("a cookie with %s is refused as MissingCSRF, without a session", async (_, shape) => {
    const { client, token, hash } = await minted()
    const cookie = shape(token, hash)
    // The body repeats the cookie's own token part, so only the cookie's shape or hash can refuse it.
    const res = await signInWith(client, cookie, cookie.split("|")[0] || token)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`)
    expect(setCookies(res).some((c) => c.name.includes("session-token"))).toBe(false)
  })
})
