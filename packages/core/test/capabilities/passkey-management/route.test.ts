/**
 * GET and POST /auth/passkeys through `Auth()`, in both session strategies: the signed-in user's
 * list (never a public key), rename, delete with its account; the last-way-in rule; another user's
 * passkey answering as an unknown one; CSRF, Origin and session refusals that change nothing.
 */
import { describe, expect, it } from "vitest"
import { alice, ORIGIN } from "../../helpers/harness.js"
import { emailProvider } from "../email/helpers.js"
import { registerPasskey, setup, signInWithPasskey, signOutLocally } from "../webauthn/setup.js"
import { bob, change, cookieHeader, managementWrites, passkeyOnlyUser, seedPasskey, snapshot } from "./helpers.js"
import { listSignInMethods, unlinkLinkedAccount } from "../../../src/index.js"

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

async function list(client: { request(path: string): Promise<Response> }) {
  const res = await client.request("/auth/passkeys")
  return { res, body: (await res.json()) as { passkeys: Array<Record<string, unknown>>; error?: string; code?: string } }
}

for (const strategy of ["jwt", "database"] as const) {
  describe(`/auth/passkeys with ${strategy} sessions`, () => {
    it("GET lists the signed-in user's passkeys (created, last used, backed up), never a key, never another user's", async () => {
      const s = setup(strategy)
      s.adapter.users.set(bob.id, bob)
      seedPasskey(s.adapter, bob.id)
      await registerPasskey(s)
      signOutLocally(s.client)
      await signInWithPasskey(s)
      const { res, body } = await list(s.client)
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toMatch(/application\/json/)
      expect(res.headers.get("cache-control")).toContain("no-store")
      expect(body.passkeys).toHaveLength(1)
      const [passkey] = body.passkeys
      expect(Object.keys(passkey!).sort()).toEqual(["backedUp", "createdAt", "deviceType", "id", "lastUsedAt", "name", "transports"])
      expect(passkey).toMatchObject({ id: s.device.credentials[0]!.id.toString("base64url"), name: null, backedUp: false, deviceType: "singleDevice", transports: ["internal"] })
      expect(passkey!.createdAt).toMatch(ISO)
      expect(passkey!.lastUsedAt).toMatch(ISO)
      expect(JSON.stringify(body)).not.toContain(s.adapter.authenticators.values().next().value!.credentialPublicKey)
    })

    it("POST rename stores the cleaned name and answers the passkey", async () => {
      const s = setup(strategy)
      const id = seedPasskey(s.adapter, alice.id!)
      await s.client.signIn()
      const res = await change(s.client, { action: "rename", id, name: "  Work\u0000 laptop\u202e\n " })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({
        passkey: { id, name: "Work laptop", createdAt: "2026-01-02T03:04:05.000Z", lastUsedAt: null, backedUp: true, deviceType: "multiDevice", transports: ["internal", "hybrid"] },
      })
      expect((await list(s.client)).body.passkeys[0]!.name).toBe("Work laptop")
      const long = await change(s.client, { action: "rename", id, name: "é".repeat(100) })
      expect(((await long.json()) as { passkey: { name: string } }).passkey.name).toBe("é".repeat(64))
    })

    it("POST delete removes one passkey and its webauthn account; the others stay", async () => {
      const s = setup(strategy)
      const gone = seedPasskey(s.adapter, alice.id!)
      const kept = seedPasskey(s.adapter, alice.id!)
      await s.client.signIn()
      const res = await change(s.client, { action: "delete", id: gone })
      expect(res.status).toBe(200)
      expect(((await res.json()) as { passkey: { id: string } }).passkey.id).toBe(gone)
      expect((await list(s.client)).body.passkeys.map((p) => p.id)).toEqual([kept])
      const stored = Buffer.from(gone, "base64url").toString("base64")
      expect(s.adapter.accounts.some((a) => a.providerAccountId === stored)).toBe(false)
      expect(s.adapter.accounts.filter((a) => a.type === "webauthn")).toHaveLength(1)
    })

    it("POST with a JSON body works like the form", async () => {
      const s = setup(strategy)
      const id = seedPasskey(s.adapter, alice.id!)
      await s.client.signIn()
      const csrfToken = await s.client.csrfToken()
      const res = await s.client.request("/auth/passkeys", { json: { action: "rename", id, name: "Phone", csrfToken } })
      expect(res.status).toBe(200)
      expect(s.adapter.authenticators.get(Buffer.from(id, "base64url").toString("base64"))!.name).toBe("Phone")
    })

    it("another user's passkey answers exactly like an unknown id, and is not touched", async () => {
      const s = setup(strategy)
      s.adapter.users.set(bob.id, bob)
      const bobs = seedPasskey(s.adapter, bob.id)
      seedPasskey(s.adapter, alice.id!)
      await s.client.signIn()
      const before = snapshot(s.adapter)
      const unknown = Buffer.from("no-such-credential").toString("base64url")
      for (const action of ["rename", "delete"]) {
        const foreign = await change(s.client, { action, id: bobs, name: "Mine now" })
        const missing = await change(s.client, { action, id: unknown, name: "Mine now" })
        expect(foreign.status).toBe(404)
        expect(missing.status).toBe(404)
        expect(await foreign.json()).toEqual({ error: "PasskeyManagementError", code: "PASSKEY_UNKNOWN" })
        expect(await missing.json()).toEqual({ error: "PasskeyManagementError", code: "PASSKEY_UNKNOWN" })
      }
      expect(snapshot(s.adapter)).toBe(before)
      expect(managementWrites(s.adapter)).toEqual([])
    })

    it("refuses without a session (401), without a CSRF token and from another site (403); nothing changes", async () => {
      const s = setup(strategy)
      const id = seedPasskey(s.adapter, alice.id!)
      const visitor = await list(s.client)
      expect(visitor.res.status).toBe(401)
      expect(visitor.body).toEqual({ error: "SessionRequired", code: "SESSION_MISSING" })
      const anonymous = await change(s.client, { action: "delete", id })
      expect(anonymous.status).toBe(401)
      await s.client.signIn()
      const before = snapshot(s.adapter)
      const noToken = await s.client.request("/auth/passkeys", { form: { action: "delete", id } })
      expect(noToken.status).toBe(403)
      expect(await noToken.json()).toEqual({ error: "MissingCSRF" })
      const crossSite = await change(s.client, { action: "delete", id }, { headers: { origin: "https://evil.example" } })
      expect(crossSite.status).toBe(403)
      const fetchMetadata = await change(s.client, { action: "rename", id, name: "x" }, { headers: { "x-no-origin": "1", "sec-fetch-site": "cross-site" } })
      expect(fetchMetadata.status).toBe(403)
      expect(snapshot(s.adapter)).toBe(before)
      expect(managementWrites(s.adapter)).toEqual([])
    })

    it("refuses a bad name, a missing id and an unknown action (400); nothing changes", async () => {
      const s = setup(strategy)
      const id = seedPasskey(s.adapter, alice.id!)
      await s.client.signIn()
      const before = snapshot(s.adapter)
      const cases: Array<[Record<string, string>, string]> = [
        [{ action: "rename", id, name: " \u200b\t " }, "PASSKEY_NAME_INVALID"],
        [{ action: "rename", id }, "PASSKEY_NAME_INVALID"],
        [{ action: "delete" }, "PASSKEY_ID_MISSING"],
        [{ action: "revoke", id }, "PASSKEY_ACTION_INVALID"],
      ]
      for (const [fields, code] of cases) {
        const res = await change(s.client, fields)
        expect(res.status, code).toBe(400)
        expect(await res.json()).toEqual({ error: "PasskeyManagementError", code })
      }
      expect(snapshot(s.adapter)).toBe(before)
    })
  })

  describe(`the last way to sign in (${strategy} sessions)`, () => {
    it("deleting a user's only passkey, their only way in, is refused (409 LAST_SIGN_IN_METHOD); nothing changes", async () => {
      const s = await passkeyOnlyUser(strategy)
      const before = snapshot(s.adapter)
      const res = await change(s.client, { action: "delete", id: s.id })
      expect(res.status).toBe(409)
      expect(await res.json()).toEqual({ error: "PasskeyManagementError", code: "LAST_SIGN_IN_METHOD" })
      expect(snapshot(s.adapter)).toBe(before)
      expect(managementWrites(s.adapter)).toEqual([])
    })

    it("allowed with allowDeletingLastPasskey: the passkey and its account are gone", async () => {
      const s = await passkeyOnlyUser(strategy, { allowDeletingLastPasskey: true })
      expect((await change(s.client, { action: "delete", id: s.id })).status).toBe(200)
      expect(s.adapter.authenticators.size).toBe(0)
      expect(s.adapter.accounts.filter((a) => a.userId === s.userId)).toEqual([])
    })

    it("allowed when another passkey remains", async () => {
      const s = await passkeyOnlyUser(strategy)
      seedPasskey(s.adapter, s.userId)
      expect((await change(s.client, { action: "delete", id: s.id })).status).toBe(200)
      expect(s.adapter.authenticators.size).toBe(1)
    })

    it("allowed with another linked account of a configured provider; one of a provider no longer configured does not count", async () => {
      const s = await passkeyOnlyUser(strategy)
      s.adapter.accounts.push({ provider: "github", type: "oauth", providerAccountId: "42", userId: s.userId })
      expect((await change(s.client, { action: "delete", id: s.id })).status).toBe(409)
      s.adapter.accounts.push({ provider: "credentials", type: "credentials", providerAccountId: "pat", userId: s.userId })
      expect((await change(s.client, { action: "delete", id: s.id })).status).toBe(200)
      expect(s.adapter.authenticators.size).toBe(0)
    })

    it("allowed with a verified e-mail address while an e-mail provider is configured, not without the provider", async () => {
      const withEmail = await passkeyOnlyUser(strategy, {}, [emailProvider({ sent: [] })])
      withEmail.adapter.users.set(withEmail.userId, { ...withEmail.adapter.users.get(withEmail.userId)!, email: "pat@example.com", emailVerified: new Date() })
      expect((await change(withEmail.client, { action: "delete", id: withEmail.id })).status).toBe(200)
      const without = await passkeyOnlyUser(strategy)
      without.adapter.users.set(without.userId, { ...without.adapter.users.get(without.userId)!, email: "pat@example.com" })
      expect((await change(without.client, { action: "delete", id: without.id })).status).toBe(409)
    })

    it("two concurrent deletions of the user's last two passkeys leave one (the later check stores its passkey again)", async () => {
      const s = await passkeyOnlyUser(strategy)
      const second = seedPasskey(s.adapter, s.userId)
      const results = await Promise.all([change(s.client, { action: "delete", id: s.id }), change(s.client, { action: "delete", id: second })])
      expect(s.adapter.authenticators.size).toBeGreaterThanOrEqual(1)
      expect(results.filter((r) => r.status === 200)).toHaveLength(2 - s.adapter.authenticators.size)
      for (const r of results.filter((r) => r.status !== 200)) expect(await r.json()).toMatchObject({ code: "LAST_SIGN_IN_METHOD" })
      // What is left still signs in.
      signOutLocally(s.client)
      const [left] = [...s.adapter.authenticators.values()]
      expect(left!.userId).toBe(s.userId)
    })

    it("a passkey-only user's sign-in methods list their passkeys (never an empty list)", async () => {
      const s = await passkeyOnlyUser(strategy)
      seedPasskey(s.adapter, s.userId)
      const methods = await listSignInMethods(new Request(`${ORIGIN}/account`, { headers: { cookie: cookieHeader(s.client) } }), s.config)
      expect(methods).toEqual([{ kind: "passkey", provider: "passkey", name: "Passkey", count: 2, removal: "delete-passkeys" }])
    })

    it("unlinking the passkey provider as a linked account is refused and names deletePasskey; the passkey still works", async () => {
      const s = await passkeyOnlyUser(strategy)
      const refused = await unlinkLinkedAccount(new Request(`${ORIGIN}/account`, { headers: { cookie: cookieHeader(s.client) } }), s.config, { provider: "passkey" }).catch((e: unknown) => e)
      expect(refused).toMatchObject({ type: "AccountManagementError", code: "ACCOUNT_NOT_UNLINKABLE", message: expect.stringContaining("deletePasskey") })
      expect(s.adapter.authenticators.size).toBe(1)
      signOutLocally(s.client)
      expect((await signInWithPasskey(s)).status).toBe(302)
    })

    it("an address nobody verified is no way in (an e-mail link to it proves nothing)", async () => {
      const s = await passkeyOnlyUser(strategy, {}, [emailProvider({ sent: [] })])
      s.adapter.users.set(s.userId, { ...s.adapter.users.get(s.userId)!, email: "pat@example.com", emailVerified: null })
      const res = await change(s.client, { action: "delete", id: s.id })
      expect(res.status).toBe(409)
      expect(await res.json()).toMatchObject({ code: "LAST_SIGN_IN_METHOD" })
      expect(s.adapter.authenticators.size).toBe(1)
    })
  })
}

describe("/auth/passkeys and the configuration", () => {
  it("without a passkey provider: 404 UnknownAction", async () => {
    const s = setup("database", { providers: setup("database").config.providers.filter((p) => (p as { type: string }).type !== "webauthn") })
    await s.client.signIn()
    const res = await s.client.request("/auth/passkeys")
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ error: "UnknownAction", code: "ACTION_UNAVAILABLE" })
  })

  it("an adapter without updateAuthenticator / deleteAuthenticator: listing works, changes answer Configuration and log which methods are missing", async () => {
    const s = setup("database")
    delete (s.adapter as { updateAuthenticator?: unknown }).updateAuthenticator
    delete (s.adapter as { deleteAuthenticator?: unknown }).deleteAuthenticator
    const id = seedPasskey(s.adapter, alice.id!)
    await s.client.signIn()
    expect((await list(s.client)).body.passkeys).toHaveLength(1)
    for (const [action, method] of [["rename", "updateAuthenticator"], ["delete", "deleteAuthenticator"]] as const) {
      const res = await change(s.client, { action, id, name: "x" })
      expect(res.status).toBe(500)
      expect(await res.json()).toEqual({ error: "Configuration" })
      const logged = s.log.entries.filter((e) => e.level === "error" && e.code === "MissingAdapterMethods").at(-1)
      expect((logged?.message[0] as Error).message).toBe(`Passkey management (${action}) needs an adapter with ${method}`)
    }
    expect(s.adapter.authenticators.size).toBe(1)
  })

  it("an Auth.js-shaped authenticator (no name, createdAt, lastUsedAt) lists with nulls", async () => {
    const s = setup("jwt")
    const id = seedPasskey(s.adapter, alice.id!, { createdAt: undefined, transports: null, credentialBackedUp: false })
    await s.client.signIn()
    expect((await list(s.client)).body.passkeys).toEqual([{ id, name: null, createdAt: null, lastUsedAt: null, backedUp: false, deviceType: "multiDevice", transports: [] }])
  })

  it("the page origin is the configured url: a POST from it passes", async () => {
    const s = setup("jwt")
    const id = seedPasskey(s.adapter, alice.id!)
    await s.client.signIn()
    expect((await change(s.client, { action: "rename", id, name: "Key" }, { headers: { origin: ORIGIN } })).status).toBe(200)
  })
})
