/**
 * A session cookie that reads as no session is cleared by a navigation, never by a background fetch
 * (`Sec-Fetch-Mode` other than `navigate`). A fetch that left before this browser's cookie was
 * replaced (a new sign-in, "sign out everywhere else" re-issuing it under the new epoch) carries the
 * superseded cookie; clearing in its answer, which may arrive after the new cookie, would sign the
 * browser out. Both strategies; clients that send no Fetch Metadata keep the old behaviour.
 */
import { describe, expect, it } from "vitest"
import { alice, Client, config, setCookies } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { revokeOtherSessions, type AuthConfig } from "../../../src/index.js"

const COOKIE = "authlib.session-token"

/** `GET /auth/session` with `cookie`, as a fetch or a navigation (or a client that says neither). */
async function readWith(client: Client, cookie: string, mode: "cors" | "same-origin" | "no-cors" | "navigate" | null) {
  const headers: Record<string, string> = { cookie: `${COOKIE}=${cookie}` }
  if (mode) headers["sec-fetch-mode"] = mode
  const res = await client.request("/auth/session", { headers })
  return { session: await res.json(), cleared: setCookies(res).some((c) => c.name === COOKIE && c.value === "") }
}

function jwtSetup(): AuthConfig {
  const adapter = memoryAdapter()
  adapter.users.set(alice.id!, { id: alice.id!, name: alice.name!, email: alice.email!, emailVerified: null, image: null })
  return config({ adapter, session: { strategy: "jwt", checkRevocation: "every-request" } })
}

describe("a session cookie that reads as none", () => {
  it("JWT: the token 'sign out everywhere else' superseded, still in a fetch that left before, reads as none and clears nothing", async () => {
    const cfg = jwtSetup()
    const client = new Client(cfg)
    await client.signIn()
    const stale = client.jar.get(COOKIE)!
    const request = new Request("http://localhost:3000/account", { headers: { cookie: `${COOKIE}=${stale}` } })
    const { setCookie } = await revokeOtherSessions(request, cfg)
    expect(setCookie).toHaveLength(1)
    for (const mode of ["cors", "same-origin", "no-cors"] as const) expect(await readWith(client, stale, mode)).toEqual({ session: null, cleared: false })
    expect(await readWith(client, stale, "navigate")).toEqual({ session: null, cleared: true })
    expect(await readWith(client, stale, null)).toEqual({ session: null, cleared: true })
  })

  it("JWT: a made-up value is no session either way, cleared only by a navigation", async () => {
    const client = new Client(jwtSetup())
    expect(await readWith(client, "not-a-token", "cors")).toEqual({ session: null, cleared: false })
    expect(await readWith(client, "not-a-token", "navigate")).toEqual({ session: null, cleared: true })
  })

  it("database: a signed-out session's cookie in a fetch reads as none and clears nothing; a navigation clears it", async () => {
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter }))
    await client.signIn()
    const stale = client.jar.get(COOKIE)!
    adapter.sessions.clear()
    expect(await readWith(client, stale, "cors")).toEqual({ session: null, cleared: false })
    expect(await readWith(client, stale, "navigate")).toEqual({ session: null, cleared: true })
    expect(await readWith(client, stale, null)).toEqual({ session: null, cleared: true })
  })

  it("a fetch with a live session is answered as before", async () => {
    const client = new Client(jwtSetup())
    await client.signIn()
    expect((await readWith(client, client.jar.get(COOKIE)!, "cors")).session).toMatchObject({ user: { email: alice.email } })
  })
})
