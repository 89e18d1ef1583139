/**
 * Passkeys under attack: every response below is a real, correctly signed WebAuthn response that
 * differs from a good one in one thing. Each is refused with a stable code and changes nothing
 * stored (no authenticator, counter, user, account or session written).
 */
import { randomBytes } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { alice, ORIGIN } from "../../helpers/harness.js"
import { answer, options, registerPasskey, setup, signInWithPasskey, signOutLocally, type PasskeySetup } from "./setup.js"

afterEach(() => {
  vi.useRealTimers()
})

/** The writes that would mean an attack got somewhere (making, consuming and bounding challenge records is expected). */
const CHALLENGE_WRITES = new Set(["useVerificationToken", "createVerificationToken", "retireVerificationTokens"])
const harmful = (s: PasskeySetup) => s.adapter.writes().filter((m) => !CHALLENGE_WRITES.has(m))

function refusedWith(res: Response, code: string) {
  expect(res.status).toBe(302)
  const location = new URL(res.headers.get("location")!)
  expect(location.pathname).toBe("/auth/error")
  expect(Object.fromEntries(location.searchParams)).toEqual({ error: "WebAuthnVerificationError", code })
}

/** Alice with one passkey, signed out; the adapter's call log starts empty. */
async function alicesPasskey(strategy: "jwt" | "database" = "database", provider = {}) {
  const s = setup(strategy, {}, provider)
  expect((await registerPasskey(s)).status).toBe(302)
  signOutLocally(s.client)
  s.adapter.calls.length = 0
  return s
}

describe("authentication responses that must fail", () => {
  const cases: Array<[string, Parameters<typeof signInWithPasskey>[1], string]> = [
    ["signed for another origin", { origin: "https://evil.example" }, "ORIGIN_MISMATCH"],
    ["with another RP ID hash", { rpId: "evil.example" }, "RP_ID_MISMATCH"],
    ["without user verification", { userVerified: false }, "USER_VERIFICATION_MISSING"],
    ["with a tampered signature", { tamperSignature: true }, "SIGNATURE_INVALID"],
    ["with client data changed after signing", { tamperClientData: true }, "SIGNATURE_INVALID"],
    ["for an unknown credential", { id: Buffer.from("not-a-registered-credential") }, "CREDENTIAL_UNKNOWN"],
    ["of the registration type", { type: "webauthn.create" }, "VERIFICATION_FAILED"],
  ]
  for (const [name, tweak, code] of cases) {
    it(`a response ${name}: ${code}, nothing written`, async () => {
      const s = await alicesPasskey()
      const before = [...s.adapter.authenticators.values()].map((a) => ({ ...a }))
      refusedWith(await signInWithPasskey(s, tweak), code)
      expect(harmful(s)).toEqual([])
      expect([...s.adapter.authenticators.values()]).toEqual(before)
      expect(await s.client.session()).toBeNull()
    })
  }

  it("a counter that goes backwards (a cloned authenticator) is refused and logged", async () => {
    const s = await alicesPasskey()
    expect((await signInWithPasskey(s, { counter: 5 })).status).toBe(302)
    signOutLocally(s.client)
    s.adapter.calls.length = 0
    refusedWith(await signInWithPasskey(s, { counter: 3 }), "COUNTER_REGRESSION")
    expect(harmful(s)).toEqual([])
    expect([...s.adapter.authenticators.values()][0]!.counter).toBe(5)
    expect(s.log.entries.some((e) => e.level === "warn" && e.code === "webauthn-counter-regression")).toBe(true)
  })
})

describe("challenges", () => {
  it("an answered challenge cannot be answered again, even with its cookie copied back", async () => {
    const s = await alicesPasskey()
    const { res, body } = await options(s.client, "?action=authenticate")
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("authlib.challenge="))!.split(";")[0]!.slice("authlib.challenge=".length)
    const response = s.device.authenticate(body.options)
    expect((await answer(s.client, "authenticate", response)).status).toBe(302)
    signOutLocally(s.client)
    s.client.jar.set("authlib.challenge", cookie)
    s.adapter.calls.length = 0
    refusedWith(await answer(s.client, "authenticate", response), "CHALLENGE_USED")
    expect(harmful(s)).toEqual([])
    expect(await s.client.session()).toBeNull()
  })

  it("a response to an older challenge is refused under a new one", async () => {
    const s = await alicesPasskey()
    const first = await options(s.client, "?action=authenticate")
    const old = s.device.authenticate(first.body.options)
    await options(s.client, "?action=authenticate")
    refusedWith(await answer(s.client, "authenticate", old), "CHALLENGE_INVALID")
  })

  it("no challenge cookie: CHALLENGE_MISSING", async () => {
    const s = await alicesPasskey()
    const { body } = await options(s.client, "?action=authenticate")
    const response = s.device.authenticate(body.options)
    s.client.jar.delete("authlib.challenge")
    refusedWith(await answer(s.client, "authenticate", response), "CHALLENGE_MISSING")
  })

  it("a challenge older than 5 minutes: CHALLENGE_EXPIRED", async () => {
    const s = await alicesPasskey()
    const { body } = await options(s.client, "?action=authenticate")
    const response = s.device.authenticate(body.options)
    vi.useFakeTimers({ now: Date.now() + 301_000, toFake: ["Date"] })
    refusedWith(await answer(s.client, "authenticate", response), "CHALLENGE_EXPIRED")
  })

  it("a challenge minted by another passkey provider is refused", async () => {
    const s = setup("database", {}, {})
    s.config.providers.push({ ...(s.config.providers.at(-1) as object), id: "passkey2" } as never)
    expect((await registerPasskey(s)).status).toBe(302)
    signOutLocally(s.client)
    const { body } = await options(s.client, "?action=authenticate", "passkey2")
    refusedWith(await answer(s.client, "authenticate", s.device.authenticate(body.options)), "CHALLENGE_PROVIDER_MISMATCH")
  })

  it("a challenge minted for registration cannot complete an authentication", async () => {
    const s = setup("database")
    await s.client.signIn()
    const { body } = await options(s.client, "?action=register")
    refusedWith(await answer(s.client, "authenticate", s.device.register(body.options)), "CHALLENGE_ACTION_MISMATCH")
  })
})

describe("the callback POST is a protected POST", () => {
  it("without the CSRF token: MissingCSRF, nothing consumed", async () => {
    const s = await alicesPasskey()
    const { body } = await options(s.client, "?action=authenticate")
    const data = JSON.stringify(s.device.authenticate(body.options))
    const res = await s.client.request("/auth/callback/passkey", { form: { action: "authenticate", data } })
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    expect(s.adapter.writes().filter((m) => m !== "createVerificationToken" && m !== "retireVerificationTokens")).toEqual([])
  })

  it("cross-site: MissingCSRF even with a valid token", async () => {
    const s = await alicesPasskey()
    const { body } = await options(s.client, "?action=authenticate")
    const csrfToken = await s.client.csrfToken()
    const data = JSON.stringify(s.device.authenticate(body.options))
    const res = await s.client.request("/auth/callback/passkey", { form: { action: "authenticate", data, csrfToken }, headers: { origin: "https://evil.example" } })
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    expect(await s.client.session()).toBeNull()
  })

  it("accepts the same fields as a JSON body", async () => {
    const s = await alicesPasskey()
    const { body } = await options(s.client, "?action=authenticate")
    const csrfToken = await s.client.csrfToken()
    const res = await s.client.request("/auth/callback/passkey", { json: { action: "authenticate", data: s.device.authenticate(body.options), csrfToken } })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
  })

  it("malformed or oversized data: RESPONSE_INVALID or 413, nothing written", async () => {
    const s = await alicesPasskey()
    await options(s.client, "?action=authenticate")
    refusedWith(await answer(s.client, "authenticate", "{not json"), "RESPONSE_INVALID")
    refusedWith(await answer(s.client, "authenticate", JSON.stringify({ id: 1 })), "RESPONSE_INVALID")
    refusedWith(await answer(s.client, "sign-me-in", "{}"), "ACTION_INVALID")
    const huge = await answer(s.client, "authenticate", "x".repeat(70_000))
    expect(huge.status).toBe(413)
    expect(harmful(s)).toEqual([])
  })
})

describe("registration", () => {
  it("a credential already registered to another user cannot be registered again", async () => {
    const s = setup("database")
    await registerPasskey(s)
    const alicesId = s.device.credentials[0]!.id
    // Bob signs in (a second user with a password) and presents Alice's credential id.
    s.adapter.users.set("user-2", { id: "user-2", name: "Bob", email: "bob@example.com", emailVerified: null })
    signOutLocally(s.client)
    s.config.providers[0] = { ...(s.config.providers[0] as object), authorize: async () => ({ id: "user-2", name: "Bob", email: "bob@example.com" }) } as never
    await s.client.signIn()
    const { body } = await options(s.client, "?action=register")
    s.adapter.calls.length = 0
    refusedWith(await answer(s.client, "register", s.device.register(body.options, { signedId: alicesId, id: alicesId })), "CREDENTIAL_ALREADY_REGISTERED")
    expect(harmful(s)).toEqual([])
    expect([...s.adapter.authenticators.values()].map((a) => a.userId)).toEqual([alice.id])
  })

  it("a JSON id that is not the signed credential's is refused either way (RESPONSE_INVALID): the already-registered check reads the signed id", async () => {
    const s = setup("database")
    await registerPasskey(s)
    const alicesId = s.device.credentials[0]!.id
    s.adapter.users.set("user-2", { id: "user-2", name: "Bob", email: "bob@example.com", emailVerified: null })
    signOutLocally(s.client)
    s.config.providers[0] = { ...(s.config.providers[0] as object), authorize: async () => ({ id: "user-2", name: "Bob", email: "bob@example.com" }) } as never
    await s.client.signIn()
    s.adapter.calls.length = 0
    for (const tweak of [{ signedId: alicesId, id: randomBytes(16) }, { id: alicesId }]) {
      const { body } = await options(s.client, "?action=register")
      refusedWith(await answer(s.client, "register", s.device.register(body.options, tweak)), "RESPONSE_INVALID")
    }
    expect(harmful(s)).toEqual([])
    expect([...s.adapter.authenticators.values()].map((a) => a.userId)).toEqual([alice.id])
  })

  it("without user verification: USER_VERIFICATION_MISSING", async () => {
    const s = setup("database")
    refusedWith(await registerPasskey(s, { userVerified: false }), "USER_VERIFICATION_MISSING")
    expect(s.adapter.authenticators.size).toBe(0)
  })

  it("register options obtained while signed in cannot be completed after signing out", async () => {
    const s = setup("jwt")
    await s.client.signIn()
    const { body } = await options(s.client, "?action=register")
    s.client.jar.delete("authlib.session-token")
    refusedWith(await answer(s.client, "register", s.device.register(body.options)), "REGISTRATION_REQUIRES_SESSION")
    expect(s.adapter.authenticators.size).toBe(0)
  })

  it("a registration signed for another origin or RP ID is refused", async () => {
    for (const [tweak, code] of [[{ origin: "https://evil.example" }, "ORIGIN_MISMATCH"], [{ rpId: "evil.example" }, "RP_ID_MISMATCH"]] as const) {
      const s = setup("database")
      refusedWith(await registerPasskey(s, tweak), code)
      expect(s.adapter.authenticators.size).toBe(0)
    }
  })
})

describe("pending challenge records are bounded", () => {
  it("a signed-in user's register options keep only their newest 5 records, and the newest still completes", async () => {
    const s = setup("database")
    await s.client.signIn()
    let last: Awaited<ReturnType<typeof options>>["body"] | undefined
    for (let i = 0; i < 8; i++) last = (await options(s.client, "?action=register")).body
    const mine = s.adapter.tokens.filter((t) => t.identifier.endsWith(`:user:${alice.id}`))
    expect(mine).toHaveLength(5)
    expect((await answer(s.client, "register", s.device.register(last!.options))).status).toBe(302)
    expect(s.adapter.authenticators.size).toBe(1)
  })

  it("visitors' records are bounded through retireVerificationTokens (at most once per interval per process), oldest first", async () => {
    const s = setup("database")
    const retired: Array<[string, number]> = []
    const retire = s.adapter.retireVerificationTokens!
    s.adapter.retireVerificationTokens = (identifier: string, keep: number) => (retired.push([identifier, keep]), retire(identifier, keep))
    for (let i = 0; i < 3; i++) expect((await options(s.client, "?action=authenticate")).res.status).toBe(200)
    expect(retired).toEqual([["webauthn-challenge:passkey", 10_000]])
    expect(s.adapter.tokens.filter((t) => t.identifier === "webauthn-challenge:passkey")).toHaveLength(3)
  })
})
