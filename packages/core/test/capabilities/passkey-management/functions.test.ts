/**
 * The server functions `listPasskeys`, `renamePasskey` and `deletePasskey`: the user comes from the
 * session cookie of the app's own request (any path), in both strategies; refusals are thrown as
 * typed errors and change nothing.
 */
import { describe, expect, it } from "vitest"
import { deletePasskey, listPasskeys, MissingAdapterMethods, PasskeyManagementError, renamePasskey, SessionRequired } from "../../../src/index.js"
import type { AuthConfig } from "../../../src/index.js"
import { alice, ORIGIN } from "../../helpers/harness.js"
import { registerPasskey, setup, signInWithPasskey, signOutLocally } from "../webauthn/setup.js"
import { bob, cookieHeader, managementWrites, passkeyOnlyUser, seedPasskey, snapshot } from "./helpers.js"
import type { Client } from "../../helpers/harness.js"

/** The app's own request (a page of the app, not under the base path) carrying the browser's cookies. */
const appRequest = (client: Client) => new Request(`${ORIGIN}/account/security`, { headers: { cookie: cookieHeader(client) } })

async function rejection(promise: Promise<unknown>): Promise<Error & { type?: string; code?: string; status?: number }> {
  try {
    await promise
  } catch (err) {
    return err as Error
  }
  throw new Error("expected a rejection")
}

for (const strategy of ["jwt", "database"] as const) {
  describe(`passkey server functions with ${strategy} sessions`, () => {
    it("listPasskeys resolves the signed-in user's passkeys with Dates; renamePasskey and deletePasskey change them", async () => {
      const s = setup(strategy)
      await registerPasskey(s)
      signOutLocally(s.client)
      await signInWithPasskey(s)
      const extra = seedPasskey(s.adapter, alice.id!)
      const [first, second] = await listPasskeys(appRequest(s.client), s.config)
      expect(first).toMatchObject({ id: s.device.credentials[0]!.id.toString("base64url"), name: null, backedUp: false, deviceType: "singleDevice", transports: ["internal"] })
      expect(first!.createdAt).toBeInstanceOf(Date)
      expect(first!.lastUsedAt).toBeInstanceOf(Date)
      expect(second!.id).toBe(extra)
      expect(first).not.toHaveProperty("credentialPublicKey")

      const renamed = await renamePasskey(appRequest(s.client), s.config, { id: first!.id, name: " Laptop " })
      expect(renamed).toEqual({ ...first, name: "Laptop" })
      const deleted = await deletePasskey(appRequest(s.client), s.config, { id: extra })
      expect(deleted.id).toBe(extra)
      expect((await listPasskeys(appRequest(s.client), s.config)).map((p) => [p.id, p.name])).toEqual([[first!.id, "Laptop"]])
    })

    it("without a session: SessionRequired (SESSION_MISSING), no adapter write", async () => {
      const s = setup(strategy)
      const id = seedPasskey(s.adapter, alice.id!)
      const request = new Request(`${ORIGIN}/account`)
      for (const call of [listPasskeys(request, s.config), renamePasskey(request, s.config, { id, name: "x" }), deletePasskey(request, s.config, { id })]) {
        const err = await rejection(call)
        expect(err).toBeInstanceOf(SessionRequired)
        expect(err).toMatchObject({ type: "SessionRequired", code: "SESSION_MISSING", message: "Sign in to manage passkeys" })
      }
      expect(managementWrites(s.adapter)).toEqual([])
    })

    it("another user's passkey: PASSKEY_UNKNOWN (404), as an unknown id; nothing changes", async () => {
      const s = setup(strategy)
      s.adapter.users.set(bob.id, bob)
      const bobs = seedPasskey(s.adapter, bob.id)
      await s.client.signIn()
      const before = snapshot(s.adapter)
      const foreign = await rejection(deletePasskey(appRequest(s.client), s.config, { id: bobs }))
      const unknown = await rejection(deletePasskey(appRequest(s.client), s.config, { id: "AAAAAAAAAAAAAAAAAAAAAA" }))
      expect(foreign).toBeInstanceOf(PasskeyManagementError)
      for (const err of [foreign, unknown]) expect({ code: err.code, status: err.status, message: err.message }).toEqual({ code: "PASSKEY_UNKNOWN", status: 404, message: "No passkey of yours has this id" })
      expect(await rejection(renamePasskey(appRequest(s.client), s.config, { id: bobs, name: "Mine" }))).toMatchObject({ code: "PASSKEY_UNKNOWN" })
      expect(snapshot(s.adapter)).toBe(before)
    })

    it("the last way in: LAST_SIGN_IN_METHOD (409), nothing changes; allowed with allowDeletingLastPasskey", async () => {
      const s = await passkeyOnlyUser(strategy)
      const before = snapshot(s.adapter)
      const err = await rejection(deletePasskey(appRequest(s.client), s.config, { id: s.id }))
      expect(err).toBeInstanceOf(PasskeyManagementError)
      expect({ code: err.code, status: err.status }).toEqual({ code: "LAST_SIGN_IN_METHOD", status: 409 })
      expect(snapshot(s.adapter)).toBe(before)
      expect(managementWrites(s.adapter)).toEqual([])
      const allowed = await passkeyOnlyUser(strategy, { allowDeletingLastPasskey: true })
      expect((await deletePasskey(appRequest(allowed.client), allowed.config, { id: allowed.id })).id).toBe(allowed.id)
      expect(allowed.adapter.authenticators.size).toBe(0)
    })
  })
}

describe("passkey server functions and the configuration", () => {
  it("an adapter without deleteAuthenticator: MissingAdapterMethods naming it, logged; the passkey stays", async () => {
    const s = setup("database")
    delete (s.adapter as { deleteAuthenticator?: unknown }).deleteAuthenticator
    const id = seedPasskey(s.adapter, alice.id!)
    seedPasskey(s.adapter, alice.id!)
    await s.client.signIn()
    const err = await rejection(deletePasskey(appRequest(s.client), s.config, { id }))
    expect(err).toBeInstanceOf(MissingAdapterMethods)
    expect(err).toMatchObject({ code: "ADAPTER_METHODS_MISSING", message: "Passkey management (delete) needs an adapter with deleteAuthenticator" })
    expect(s.log.entries.some((e) => e.level === "error" && e.code === "MissingAdapterMethods")).toBe(true)
    expect(s.adapter.authenticators.size).toBe(2)
  })

  it("a broken configuration throws its error", async () => {
    const s = setup("jwt")
    const broken: AuthConfig = { ...s.config, secret: undefined, trustHost: true }
    expect(await rejection(listPasskeys(new Request(`${ORIGIN}/`), broken))).toMatchObject({ type: "MissingSecret" })
  })

  it("without listAccountsByUserId linked accounts are not seen: deleting the only passkey is refused", async () => {
    const s = setup("database")
    delete (s.adapter as { listAccountsByUserId?: unknown }).listAccountsByUserId
    const id = seedPasskey(s.adapter, alice.id!)
    await s.client.signIn() // links a credentials account, which this adapter cannot list
    expect(s.adapter.accounts.some((a) => a.userId === alice.id && a.type === "credentials")).toBe(true)
    expect(await rejection(deletePasskey(appRequest(s.client), s.config, { id }))).toMatchObject({ code: "LAST_SIGN_IN_METHOD" })
  })

  it("deleting a passkey unlinks only that passkey's account, even without listAccountsByUserId", async () => {
    const s = setup("database")
    delete (s.adapter as { listAccountsByUserId?: unknown }).listAccountsByUserId
    const gone = seedPasskey(s.adapter, alice.id!)
    const kept = seedPasskey(s.adapter, alice.id!)
    await s.client.signIn()
    await deletePasskey(appRequest(s.client), s.config, { id: gone })
    const webauthn = s.adapter.accounts.filter((a) => a.type === "webauthn").map((a) => a.providerAccountId)
    expect(webauthn).toEqual([Buffer.from(kept, "base64url").toString("base64")])
  })
})
