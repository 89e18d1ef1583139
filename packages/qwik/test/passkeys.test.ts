/**
 * The Qwik mirror of core's passkey management: the signed-in user's passkeys through the
 * request event (cookies as core sees them in this request), renamed, deleted, and the refusals
 * as core's errors.
 */
import { MemoryAdapter } from "@authlib/adapter-test/memory-adapter"
import type { Adapter } from "@authlib/core"
import { describe, expect, it } from "vitest"
import { deletePasskey, listPasskeys, PasskeyManagementError, renamePasskey, SessionRequired } from "../src/index.js"
import { ada, ORIGIN, testConfig } from "./harness/config.js"
import { fakeEvent } from "./harness/fake-event.js"
import { handle, setup, signInThroughRoute } from "./harness/setup.js"

function passkeyConfig() {
  const adapter = MemoryAdapter()
  const config = testConfig({
    url: ORIGIN,
    adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [
      ...testConfig().providers!,
      { id: "passkey", name: "Passkey", type: "webauthn", simpleWebAuthn: () => Promise.reject(new Error("not needed to manage passkeys")) },
    ],
  })
  return { adapter, config }
}

async function addPasskey(adapter: Required<Adapter>, id: string) {
  if (!(await adapter.getUser(ada.id))) await adapter.createUser({ id: ada.id, name: ada.name, email: ada.email, emailVerified: null })
  await adapter.createAuthenticator({ credentialID: id, providerAccountId: id, userId: ada.id, counter: 0, credentialBackedUp: true, credentialDeviceType: "multiDevice", credentialPublicKey: "AQID", transports: "internal" })
}

/** A page request of the signed-in Ada, after the plugin's onRequest ran. */
async function signedInPage(auth: ReturnType<typeof setup>["auth"]) {
  const { cookie } = await signInThroughRoute(auth)
  const ev = fakeEvent(`${ORIGIN}/account`, { cookie })
  await handle(auth, ev)
  return ev
}

describe("listPasskeys / renamePasskey / deletePasskey (Qwik)", () => {
  it("lists, renames and deletes the signed-in user's passkeys", async () => {
    const { adapter, config } = passkeyConfig()
    const { auth } = setup(config)
    await addPasskey(adapter, "AAAA")
    await addPasskey(adapter, "BBBB")
    const ev = await signedInPage(auth)
    const listed = await listPasskeys(ev)
    expect(listed.map((p) => p.id).sort()).toEqual(["AAAA", "BBBB"])
    expect(listed[0]).toMatchObject({ backedUp: true, deviceType: "multiDevice", transports: ["internal"] })
    expect(await renamePasskey(ev, { id: "AAAA", name: "  Laptop\u200b " })).toMatchObject({ id: "AAAA", name: "Laptop" })
    expect(await deletePasskey(ev, { id: "BBBB" })).toMatchObject({ id: "BBBB" })
    expect((await listPasskeys(ev)).map((p) => [p.id, p.name])).toEqual([["AAAA", "Laptop"]])
  })

  it("refuses the last way to sign in, an unknown id, and a visitor, with core's errors", async () => {
    const { adapter, config } = passkeyConfig()
    const { auth } = setup(config)
    await addPasskey(adapter, "AAAA")
    const ev = await signedInPage(auth)
    await expect(deletePasskey(ev, { id: "AAAA" })).rejects.toMatchObject({ type: "PasskeyManagementError", code: "LAST_SIGN_IN_METHOD" })
    await expect(renamePasskey(ev, { id: "ZZZZ", name: "x" })).rejects.toBeInstanceOf(PasskeyManagementError)
    const visitor = fakeEvent(`${ORIGIN}/account`)
    await handle(auth, visitor)
    await expect(listPasskeys(visitor)).rejects.toBeInstanceOf(SessionRequired)
    expect((await adapter.listAuthenticatorsByUserId(ada.id)).length).toBe(1)
  })
})
