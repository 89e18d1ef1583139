/**
 * The presets plugged into core's `Auth`: a full GitHub sign-in (PKCE, state, RFC 9207 `iss`, the
 * private-email lookup) against a local stand-in for github.com, through the public API only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import GitHub from "@authlib/providers/github"
import { Client, json, SECRET, startServer } from "./helpers.js"

/** Core's marker allowing http:// endpoints (local servers only). */
const insecure = Symbol.for("authlib.allow-insecure-oauth-requests")

const tokenRequests: URLSearchParams[] = []
let github: Awaited<ReturnType<typeof startServer>>

beforeAll(async () => {
  github = await startServer((req, body, res) => {
    const bearer = req.headers.authorization === "Bearer gho_from_code"
    if (req.method === "POST" && req.url === "/login/oauth/access_token") {
      const form = new URLSearchParams(body)
      tokenRequests.push(form)
      if (form.get("code") !== "code-123" || !form.get("code_verifier")) return json(res, 400, { error: "bad_verification_code" })
      return json(res, 200, { access_token: "gho_from_code", token_type: "bearer", scope: "read:user,user:email" })
    }
    if (req.url === "/api/v3/user" && bearer) return json(res, 200, { id: 9919, login: "mona", name: null, email: null, avatar_url: "https://avatars.example/mona.png" })
    if (req.url === "/api/v3/user/emails" && bearer) {
      return json(res, 200, [
        { email: "unverified@example.com", primary: true, verified: false, visibility: "private" },
        { email: "mona@example.com", primary: false, verified: true, visibility: null },
      ])
    }
    json(res, 404, { message: "Not Found" })
  })
})
afterAll(() => github.close())

/** What core logged in these tests, kept here instead of printed (the forged state below is logged on purpose). */
const logged: Array<{ level: string; code: string; message: unknown[] }> = []
const logger = {
  error: (code: string, ...message: unknown[]) => void logged.push({ level: "error", code, message }),
  warn: (code: string, ...message: unknown[]) => void logged.push({ level: "warn", code, message }),
  debug: () => {},
}

function config() {
  return {
    secret: SECRET,
    trustHost: true,
    logger,
    providers: [GitHub({ enterprise: { baseUrl: github.url }, clientId: "client-1", clientSecret: "secret-1", [insecure]: true })],
  }
}

describe("GitHub preset through core's Auth", () => {
  it("signs in: authorization redirect with PKCE and state, code exchange, private e-mail lookup, session", async () => {
    const client = new Client(config())
    const start = await client.post("/auth/signin/github", { callbackUrl: "/dashboard" })
    expect(start.status).toBe(302)
    const authorize = new URL(start.headers.get("location")!)
    expect(authorize.origin + authorize.pathname).toBe(`${github.url}/login/oauth/authorize`)
    expect(authorize.searchParams.get("scope")).toBe("read:user user:email")
    expect(authorize.searchParams.get("client_id")).toBe("client-1")
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256")
    const state = authorize.searchParams.get("state")
    expect(state).toBeTruthy()

    const query = new URLSearchParams({ code: "code-123", state: state!, iss: `${github.url}/login/oauth` })
    const callback = await client.request(`/auth/callback/github?${query}`)
    expect(callback.status).toBe(302)
    expect(callback.headers.get("location")).toBe("http://localhost:3000/dashboard")
    expect(tokenRequests.at(-1)?.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43,128}$/)

    const session = (await (await client.request("/auth/session")).json()) as { user: Record<string, unknown> }
    expect(session.user).toMatchObject({ name: "mona", email: "mona@example.com", image: "https://avatars.example/mona.png" })
  })

  it("refuses a callback whose state was not minted for this browser", async () => {
    const client = new Client(config())
    await client.post("/auth/signin/github")
    logged.length = 0
    const query = new URLSearchParams({ code: "code-123", state: "forged-state", iss: `${github.url}/login/oauth` })
    const callback = await client.request(`/auth/callback/github?${query}`)
    expect(callback.status).toBe(302)
    expect(callback.headers.get("location")).toContain("/auth/error?error=")
    // The server log says why, in full.
    expect(logged.filter((l) => l.level === "error").map((l) => [l.code, (l.message[0] as { code?: string }).code])).toEqual([["InvalidCheck", "CHECK_STATE_MISMATCH"]])
    expect(await (await client.request("/auth/session")).json()).toBeNull()
  })
})
