/**
 * Passkeys end to end through `Auth()`, in both session strategies: a signed-in user adds a
 * passkey, signs out, and signs in with it; the stored authenticator and its counter; the options
 * route's answers and its action inference; new accounts when allowed.
 */
import { describe, expect, it } from "vitest"
import { alice, ORIGIN } from "../../helpers/harness.js"
import { answer, options, registerPasskey, setup, signInWithPasskey, signOutLocally } from "./setup.js"

for (const strategy of ["jwt", "database"] as const) {
  describe(`passkeys with ${strategy} sessions`, () => {
    it("a signed-in user adds a passkey, signs out, and signs in with it", async () => {
      const s = setup(strategy)
      const registered = await registerPasskey(s)
      expect(registered.status).toBe(302)
      expect(registered.headers.get("location")).toBe(`${ORIGIN}/`)
      const [stored] = [...s.adapter.authenticators.values()]
      expect(stored).toMatchObject({ userId: alice.id, counter: 0, credentialBackedUp: false, credentialDeviceType: "singleDevice", transports: "internal" })
      // Stored as Auth.js stores it: standard base64 id (also the account's providerAccountId).
      expect(stored!.credentialID).toBe(s.device.credentials[0]!.id.toString("base64"))
      expect(s.adapter.accounts).toContainEqual(expect.objectContaining({ provider: "passkey", type: "webauthn", providerAccountId: stored!.credentialID, userId: alice.id }))

      signOutLocally(s.client)
      expect(await s.client.session()).toBeNull()
      const signedIn = await signInWithPasskey(s)
      expect(signedIn.status).toBe(302)
      expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/`)
      expect(await s.client.session()).toMatchObject({ user: { name: alice.name, email: alice.email } })
      expect(s.adapter.authenticators.get(stored!.credentialID)!.counter).toBe(1)
      // The challenge cookie is cleared once answered.
      expect([...s.client.jar.keys()]).not.toContain("authlib.challenge")
    })

    it("runs the signIn callback and events like every provider", async () => {
      const seen: string[] = []
      const s = setup(strategy, {
        callbacks: { signIn: ({ account }) => (seen.push(`signIn:${account?.type}`), true) },
        events: { signIn: ({ account }) => void seen.push(`event:${account?.provider}`), linkAccount: () => void seen.push("linkAccount") },
      })
      await registerPasskey(s)
      signOutLocally(s.client)
      await signInWithPasskey(s)
      // From the passkey's registration on (the password sign-in before it differs by strategy).
      expect(seen.slice(seen.indexOf("signIn:webauthn"))).toEqual(["signIn:webauthn", "linkAccount", "event:passkey", "signIn:webauthn", "event:passkey"])
    })
  })
}

describe("a new passkey's default name", () => {
  const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"

  it("is the browser that made it, from the fixed vocabulary (a hostile User-Agent never becomes a name)", async () => {
    for (const [agent, name] of [[FIREFOX, "Firefox on Linux"], [`<script>${"x".repeat(5000)}`, undefined]] as const) {
      const s = setup("database")
      await s.client.signIn()
      const { body } = await options(s.client, "?action=register")
      const res = await s.client.post("/auth/callback/passkey", { action: "register", data: JSON.stringify(s.device.register(body.options)) }, { headers: { "user-agent": agent } })
      expect(res.status).toBe(302)
      expect([...s.adapter.authenticators.values()][0]!.name).toBe(name)
    }
  })

  it("is not sent to an adapter that keeps no names (an Auth.js one may refuse the key)", async () => {
    const s = setup("database")
    Object.assign(s.adapter, { updateAuthenticator: undefined })
    await s.client.signIn()
    const { body } = await options(s.client, "?action=register")
    await s.client.post("/auth/callback/passkey", { action: "register", data: JSON.stringify(s.device.register(body.options)) }, { headers: { "user-agent": FIREFOX } })
    expect([...s.adapter.authenticators.values()][0]).not.toHaveProperty("name")
  })
})

describe("the options route", () => {
  it("answers Auth.js's wire format: { action, options } and a provider-bound challenge cookie", async () => {
    const s = setup("jwt")
    const { res, body } = await options(s.client, "?action=authenticate")
    expect(res.status).toBe(200)
    expect(body.action).toBe("authenticate")
    expect(body.options).toMatchObject({ rpId: "localhost", userVerification: "required", timeout: 300_000 })
    expect(body.options.allowCredentials ?? []).toEqual([])
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("authlib.challenge="))!
    expect(cookie).toMatch(/Max-Age=300/)
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(res.headers.get("cache-control")).toContain("no-store")
  })

  it("infers authenticate for a visitor and refuses to infer for a signed-in user (as Auth.js)", async () => {
    const s = setup("database")
    expect((await options(s.client)).body.action).toBe("authenticate")
    await s.client.signIn()
    const { res, body } = await options(s.client)
    expect(res.status).toBe(400)
    expect(body).toEqual({ error: "WebAuthnVerificationError", code: "ACTION_REQUIRED" })
  })

  it("register options for a signed-in user name the user and exclude their passkeys", async () => {
    const s = setup("database")
    await registerPasskey(s)
    const { body } = await options(s.client, "?action=register")
    expect(body.action).toBe("register")
    expect(body.options.rp).toEqual({ id: "localhost", name: "localhost" })
    expect(body.options.user.name).toBe(alice.email)
    expect(body.options.excludeCredentials?.map((c) => c.id)).toEqual([s.device.credentials[0]!.id.toString("base64url")])
    expect(body.options).toMatchObject({ attestation: "none", authenticatorSelection: { residentKey: "required", userVerification: "required" } })
  })

  it("refuses register for a signed-in user the adapter does not store (jwt + credentials): such a session cannot act for a stored user", async () => {
    const s = setup("jwt")
    s.adapter.users.clear()
    await s.client.signIn()
    const { res, body } = await options(s.client, "?action=register")
    expect(res.status).toBe(400)
    expect(body).toEqual({ error: "WebAuthnVerificationError", code: "REGISTRATION_REQUIRES_SESSION" })
  })

  it("refuses register for a visitor unless new accounts are allowed", async () => {
    const s = setup("jwt")
    const { res, body } = await options(s.client, "?action=register")
    expect(res.status).toBe(400)
    expect(body).toEqual({ error: "WebAuthnVerificationError", code: "REGISTRATION_REQUIRES_SESSION" })
    expect(s.adapter.tokens).toHaveLength(0)
  })

  it("refuses an unknown action and a provider that is not a passkey provider", async () => {
    const s = setup("jwt")
    expect((await options(s.client, "?action=delete")).body).toEqual({ error: "WebAuthnVerificationError", code: "ACTION_INVALID" })
    const wrong = await s.client.request("/auth/webauthn-options/credentials")
    expect(wrong.status).toBe(500)
    expect(await wrong.json()).toEqual({ error: "Configuration" })
  })

  it("getUserInfo naming a stored user gives authenticate with that user's passkeys only", async () => {
    const s = setup("database", {}, { getUserInfo: async ({ adapter }, { query }) => {
      const user = query.email ? await adapter.getUserByEmail?.(query.email) : null
      return user ? { user, exists: true } : null
    } })
    await registerPasskey(s)
    signOutLocally(s.client)
    const { body } = await options(s.client, `?email=${encodeURIComponent(alice.email!)}`)
    expect(body.action).toBe("authenticate")
    expect(body.options.allowCredentials?.map((c) => c.id)).toEqual([s.device.credentials[0]!.id.toString("base64url")])
  })
})

describe("new accounts", () => {
  it("allowNewAccounts: a visitor registers a passkey and gets an account without an e-mail address", async () => {
    const s = setup("database", {}, { allowNewAccounts: true })
    const { body } = await options(s.client, "?action=register&name=Bob%20B.&email=alice%40example.com")
    expect(body.action).toBe("register")
    expect(body.options.user.name).toBe("Bob B.")
    const res = await answer(s.client, "register", s.device.register(body.options))
    expect(res.status).toBe(302)
    const session = (await s.client.session()) as { user: { name: string; email?: string | null } }
    expect(session.user.name).toBe("Bob B.")
    expect(session.user.email ?? null).toBeNull()
    // Alice's account was not touched: a typed address is never trusted.
    expect(s.adapter.accounts.filter((a) => a.userId === alice.id)).toEqual([])
    expect(s.adapter.users.size).toBe(2)
  })
})

describe("key types", () => {
  // The algorithms new passkeys may use (@simplewebauthn/server's defaults), verified in-process.
  for (const alg of ["ES256", "RS256", "EdDSA"] as const) {
    it(`a ${alg} passkey registers and signs in; a tampered signature is refused`, async () => {
      const s = setup("database")
      await s.client.signIn()
      const reg = await options(s.client, "?action=register")
      expect((await answer(s.client, "register", s.device.register(reg.body.options, { alg }))).status).toBe(302)
      signOutLocally(s.client)
      const bad = await options(s.client, "?action=authenticate")
      const refused = await answer(s.client, "authenticate", s.device.authenticate(bad.body.options, undefined, { tamperSignature: true }))
      expect(new URL(refused.headers.get("location")!).searchParams.get("code")).toBe("SIGNATURE_INVALID")
      expect((await signInWithPasskey(s)).headers.get("location")).toBe(`${ORIGIN}/`)
      expect(await s.client.session()).toMatchObject({ user: { email: alice.email } })
    })
  }

  it("a passkey of another algorithm cannot be registered; one stored before (ES384) signs in through @simplewebauthn/server", async () => {
    const s = setup("database")
    await s.client.signIn()
    const reg = await options(s.client, "?action=register")
    const refused = await answer(s.client, "register", s.device.register(reg.body.options, { alg: "ES384" }))
    expect(new URL(refused.headers.get("location")!).searchParams.get("code")).toBe("VERIFICATION_FAILED")
    const credential = s.device.credentials.at(-1)!
    const id = credential.id.toString("base64")
    s.adapter.authenticators.set(id, { credentialID: id, providerAccountId: id, userId: alice.id!, counter: 0, credentialBackedUp: false, credentialDeviceType: "singleDevice", credentialPublicKey: credential.cose.toString("base64"), transports: "internal" })
    s.adapter.accounts.push({ provider: "passkey", providerAccountId: id, type: "webauthn", userId: alice.id! })
    signOutLocally(s.client)
    expect((await signInWithPasskey(s)).headers.get("location")).toBe(`${ORIGIN}/`)
    expect(await s.client.session()).toMatchObject({ user: { email: alice.email } })
    signOutLocally(s.client)
    const bad = await options(s.client, "?action=authenticate")
    const tampered = await answer(s.client, "authenticate", s.device.authenticate(bad.body.options, undefined, { tamperSignature: true }))
    expect(new URL(tampered.headers.get("location")!).searchParams.get("code")).toBe("SIGNATURE_INVALID")
  })
})
