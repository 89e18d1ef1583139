/**
 * A GitHub account with no verified e-mail address signs in under database sessions: the preset
 * gives `email: null`, core creates the user with it, and the adapter stores it. Run on the Xata
 * adapter over PGlite (a real Postgres unique column) and on the in-memory adapter, through the
 * public API against a local stand-in for github.com.
 */
import { PGlite } from "@electric-sql/pglite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Adapter } from "@authlib/core"
import { MemoryAdapter } from "@authlib/adapter-test/memory-adapter"
import GitHub from "@authlib/providers/github"
import { XataAdapter, migrate } from "@authlib/xata-adapter"
import { Client, json, SECRET, startServer } from "./helpers.js"

/** Core's marker allowing http:// endpoints (local servers only). */
const insecure = Symbol.for("authlib.allow-insecure-oauth-requests")

let github: Awaited<ReturnType<typeof startServer>>
const pglite = new PGlite()

beforeAll(async () => {
  // The code names the GitHub user: "code-<id>" signs in user <id>, whose only address is unverified.
  github = await startServer((req, body, res) => {
    const token = /^Bearer gho_(\d+)$/.exec(req.headers.authorization ?? "")?.[1]
    if (req.method === "POST" && req.url === "/login/oauth/access_token") {
      const code = /^code-(\d+)$/.exec(new URLSearchParams(body).get("code") ?? "")?.[1]
      if (!code) return json(res, 400, { error: "bad_verification_code" })
      return json(res, 200, { access_token: `gho_${code}`, token_type: "bearer", scope: "read:user,user:email" })
    }
    if (req.url === "/api/v3/user" && token) return json(res, 200, { id: Number(token), login: `user${token}`, name: null, email: null, avatar_url: null })
    if (req.url === "/api/v3/user/emails" && token) return json(res, 200, [{ email: `user${token}@example.com`, primary: true, verified: false, visibility: "private" }])
    json(res, 404, { message: "Not Found" })
  })
  await migrate(pglite)
}, 60_000)
afterAll(async () => {
  await github.close()
  await pglite.close()
})

function client(adapter: Adapter): Client {
  const provider = GitHub({ enterprise: { baseUrl: github.url }, clientId: "client-1", clientSecret: "secret-1", [insecure]: true })
  // No client address in these requests: core's note about per-client rate limits is not printed.
  return new Client({ secret: SECRET, trustHost: true, logger: { warn: () => {} }, adapter, session: { strategy: "database" }, providers: [provider] })
}

/** Signs GitHub user `id` in through the authorization redirect and the callback; returns the session. */
async function signIn(adapter: Adapter, id: number): Promise<{ user: Record<string, unknown> } | null> {
  const browser = client(adapter)
  const start = await browser.post("/auth/signin/github", { callbackUrl: "/home" })
  const state = new URL(start.headers.get("location")!).searchParams.get("state")!
  const callback = await browser.request(`/auth/callback/github?${new URLSearchParams({ code: `code-${id}`, state, iss: `${github.url}/login/oauth` })}`)
  expect(callback.headers.get("location")).toBe("http://localhost:3000/home")
  return (await (await browser.request("/auth/session")).json()) as { user: Record<string, unknown> } | null
}

describe.each([
  ["XataAdapter on PGlite", () => XataAdapter(pglite)],
  ["MemoryAdapter", () => MemoryAdapter()],
])("GitHub without a verified e-mail, database sessions, %s", (_name, makeAdapter) => {
  const adapter = makeAdapter() as Required<Adapter>

  it("signs in, and the stored user has email null", async () => {
    const session = await signIn(adapter, 501)
    expect(session?.user).toMatchObject({ name: "user501" })
    expect(session?.user.email ?? null).toBeNull()
    const user = await adapter.getUserByAccount({ provider: "github", providerAccountId: "501" })
    expect(user).toMatchObject({ email: null, name: "user501" })
    expect(await adapter.getUserByEmail("user501@example.com")).toBeNull()
    expect(await adapter.getUserByEmail("")).toBeNull()
  })

  it("a second GitHub account without an e-mail gets its own user; signing in again reuses it", async () => {
    const userOf = (id: string) => adapter.getUserByAccount({ provider: "github", providerAccountId: id })
    await signIn(adapter, 502)
    const first = await userOf("502")
    await signIn(adapter, 502)
    expect(await userOf("502")).toStrictEqual(first)
    await signIn(adapter, 503)
    const second = await userOf("503")
    expect(first?.email).toBeNull()
    expect(second?.email).toBeNull()
    expect(second?.id).not.toBe(first?.id)
  })
})
