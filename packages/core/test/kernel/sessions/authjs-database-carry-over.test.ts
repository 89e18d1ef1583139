/**
 * Moving from Auth.js signs no one out (database strategy): Auth.js's cookie holds the raw session
 * token; once its sessions were moved with their tokens hashed (`@authlib/xata-adapter`'s
 * `migrateFromAuthJs`, tested end to end there against `@auth/core`), the same cookie finds the
 * session, which is re-issued under authlib's name while the Auth.js cookie is cleared. Only moved
 * sessions are found that way: a live authlib token planted under an Auth.js name is no session, and
 * on a secure origin only Auth.js's `__Secure-` name is read (a plain one can be planted).
 */
import { describe, expect, it } from "vitest"
import { Client, config, setCookies } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { sha256 } from "../../../src/kernel/security/random.js"

const RAW = "3f0e6c1a-8a53-4c8e-9a4e-6a2f1b7d5c10" // Auth.js's default: a UUID
/** What the migration hashes and our cookie carries from then on (see `AUTHJS_TOKEN_PREFIX`). */
const MOVED = `authjs.${RAW}`

function moved(over: Parameters<typeof config>[0] = {}) {
  const adapter = memoryAdapter()
  adapter.users.set("1", { id: "1", name: "Jane", email: "jane@example.com", emailVerified: null })
  // As the migration stores it: the hash of the raw token Auth.js's cookie carries, with the carry-over prefix.
  adapter.sessions.set(sha256(MOVED), { sessionToken: sha256(MOVED), userId: "1", expires: new Date(Date.now() + 20 * 86400e3) })
  const client = new Client(config({ adapter, session: { strategy: "database" }, ...over }))
  return { adapter, client }
}

describe("Auth.js v5 database sessions carry over", () => {
  it("the Auth.js cookie finds the moved session; our cookie is set with the same token and theirs cleared", async () => {
    const { client, adapter } = moved()
    client.jar.set("authjs.session-token", RAW)
    const res = await client.request("/auth/session")
    expect(await res.json()).toMatchObject({ user: { name: "Jane", email: "jane@example.com" } })
    const cookies = setCookies(res)
    expect(cookies.find((c) => c.name === "authlib.session-token")?.value).toBe(MOVED)
    expect(cookies.find((c) => c.name === "authjs.session-token")).toMatchObject({ value: "", maxAge: 0 })
    expect([...client.jar.keys()]).toEqual(["authlib.session-token"])
    expect(await client.session()).toMatchObject({ user: { email: "jane@example.com" } })
    expect(adapter.sessions.size).toBe(1)
  })

  it("sign-out ends the moved session and clears the Auth.js cookie", async () => {
    const { client, adapter } = moved()
    client.jar.set("authjs.session-token", RAW)
    const res = await client.post("/auth/signout")
    expect(res.status).toBe(302)
    expect(adapter.sessions.size).toBe(0)
    expect(setCookies(res).find((c) => c.name === "authjs.session-token")).toMatchObject({ value: "", maxAge: 0 })
  })

  it("an Auth.js token that was not moved (or is made up) reads as signed out, and is cleared", async () => {
    const { client } = moved()
    client.jar.set("authjs.session-token", "not-a-moved-token-0123456789abcdef")
    const res = await client.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res).find((c) => c.name === "authjs.session-token")).toMatchObject({ maxAge: 0 })
  })

  it("session.acceptAuthJsSessions: false ignores the Auth.js cookie", async () => {
    const { client } = moved({ session: { strategy: "database", acceptAuthJsSessions: false } })
    client.jar.set("authjs.session-token", RAW)
    const res = await client.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res)).toEqual([])
  })

  it("our own cookie wins over an Auth.js one", async () => {
    const { client, adapter } = moved()
    adapter.users.set("2", { id: "2", name: "Other", email: "other@example.com", emailVerified: null })
    const ours = "ours-0123456789abcdef0123456789"
    adapter.sessions.set(sha256(ours), { sessionToken: sha256(ours), userId: "2", expires: new Date(Date.now() + 86400e3 * 20) })
    client.jar.set("authlib.session-token", ours)
    client.jar.set("authjs.session-token", RAW)
    expect(await client.session()).toMatchObject({ user: { email: "other@example.com" } })
  })

  it("a live authlib session token planted under an Auth.js name is no session (login CSRF into the planter's account)", async () => {
    const { client, adapter } = moved()
    const planter = new Client(client.config)
    expect((await planter.signIn()).status).toBe(302)
    const token = planter.jar.get("authlib.session-token")!
    expect(adapter.sessions.has(sha256(token))).toBe(true)
    const victim = new Client(client.config)
    victim.jar.set("authjs.session-token", token)
    const res = await victim.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res).filter((c) => c.name === "authlib.session-token" && c.value !== "")).toEqual([])
  })

  it("on a secure origin a plain authjs.session-token is not read; the __Secure- one is", async () => {
    const { adapter } = moved()
    const https = config({ adapter, session: { strategy: "database" }, url: "https://app.example" } as never)
    const planted = new Client(https, "https://app.example")
    planted.jar.set("authjs.session-token", RAW)
    const res = await planted.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res)).toEqual([])
    const real = new Client(https, "https://app.example")
    real.jar.set("__Secure-authjs.session-token", RAW)
    expect(await real.session()).toMatchObject({ user: { email: "jane@example.com" } })
    expect([...real.jar.keys()]).toEqual(["__Secure-authlib.session-token"])
  })
})

describe("NextAuth.js v4 database sessions carry over (v4's cookie names, the same tables)", () => {
  it("next-auth.session-token over http, __Secure-next-auth.session-token over https (a plain one there is not read)", async () => {
    const { client } = moved()
    client.jar.set("next-auth.session-token", RAW)
    const res = await client.request("/auth/session")
    expect(await res.json()).toMatchObject({ user: { email: "jane@example.com" } })
    expect(setCookies(res).find((c) => c.name === "next-auth.session-token")).toMatchObject({ value: "", maxAge: 0 })
    expect([...client.jar.keys()]).toEqual(["authlib.session-token"])

    const { adapter } = moved()
    const https = config({ adapter, session: { strategy: "database" }, url: "https://app.example" } as never)
    const planted = new Client(https, "https://app.example")
    planted.jar.set("next-auth.session-token", RAW)
    expect(await planted.session()).toBeNull()
    const real = new Client(https, "https://app.example")
    real.jar.set("__Secure-next-auth.session-token", RAW)
    expect(await real.session()).toMatchObject({ user: { email: "jane@example.com" } })
    expect([...real.jar.keys()]).toEqual(["__Secure-authlib.session-token"])
  })
})
