/**
 * A config that runs without a capability (`withCapabilities` in `@authlib/core/internal`): the
 * registry is the config's own, so the left-out capability's routes answer exactly as an unknown
 * action does (404 `UnknownAction`), its server functions refuse the same way, and every other
 * route (sign-in, session, the other capabilities' routes) keeps working.
 */
import { describe, expect, it } from "vitest"
import { listPasskeys, listSessions, type AuthConfig } from "../../../src/index.js"
import { withCapabilities } from "../../../src/internal.js"
import { alice, Client, ORIGIN } from "../../helpers/harness.js"
import { options, setup } from "../../capabilities/webauthn/setup.js"

/** The action each capability left out here declares, and a route of the other one. */
const LEFT_OUT = [
  { capability: "passkey-management", action: "passkeys", other: "sessions" },
  { capability: "session-management", action: "sessions", other: "passkeys" },
] as const

/** What `Auth()` answers for `path` (GET, or a POST with a CSRF token). */
async function answer(client: Client, path: string, method: "GET" | "POST") {
  const res = method === "GET" ? await client.request(path) : await client.post(path, { action: "others" })
  return { status: res.status, body: (await res.json()) as { error?: string; code?: string; message?: string } }
}

const sessionRequest = (client: Client) => {
  const headers = new Headers()
  client.jar.apply(headers, new URL(ORIGIN))
  return new Request(`${ORIGIN}/app`, { headers })
}

describe.each(LEFT_OUT)("Auth() with $capability left out", ({ capability, action, other }) => {
  /** Alice signed in (database sessions, a passkey provider) under a config without `capability`. */
  async function signedIn(): Promise<{ client: Client; config: AuthConfig }> {
    const config = withCapabilities(setup("database").config, (name) => name !== capability)
    const client = new Client(config)
    expect((await client.signIn()).status).toBe(302)
    return { client, config }
  }

  it(`GET and POST /auth/${action} answer 404 UnknownAction, as an unknown action does`, async () => {
    const { client } = await signedIn()
    for (const method of ["GET", "POST"] as const) {
      const unknown = await answer(client, "/auth/no-such-action", method)
      const leftOut = await answer(client, `/auth/${action}`, method)
      expect(leftOut.status).toBe(404)
      expect(leftOut.body).toEqual({ error: "UnknownAction", code: "ACTION_UNKNOWN", message: `Unknown action: /auth/${action}` })
      expect([leftOut.status, leftOut.body.error, leftOut.body.code]).toEqual([unknown.status, unknown.body.error, unknown.body.code])
    }
  })

  it(`the same config with every capability answers GET /auth/${action}`, async () => {
    const client = new Client(setup("database").config)
    await client.signIn()
    expect((await client.request(`/auth/${action}`)).status).toBe(200)
  })

  it("sign-in, the session, the pages and the other capabilities' routes keep working", async () => {
    const { client } = await signedIn()
    expect(await client.session()).toMatchObject({ user: { email: alice.email } })
    expect((await client.request(`/auth/${other}`)).status).toBe(200)
    expect((await client.request("/auth/providers")).status).toBe(200)
    expect((await client.request("/auth/signin")).status).toBe(200)
    const register = await options(client, "?action=register")
    expect([register.res.status, register.body.action]).toEqual([200, "register"])
    expect((await client.post("/auth/signout")).status).toBe(302)
    expect(await client.session()).toBeNull()
  })

  it("its server functions refuse with UnknownAction; the other capability's answer", async () => {
    const { client, config } = await signedIn()
    const [refused, answered] = capability === "passkey-management" ? [listPasskeys, listSessions] : [listSessions, listPasskeys]
    await expect(refused(sessionRequest(client), config)).rejects.toMatchObject({ type: "UnknownAction", code: "ACTION_UNAVAILABLE", message: `Action ${action} is not available` })
    await expect(answered(sessionRequest(client), config)).resolves.toBeInstanceOf(Array)
  })
})
