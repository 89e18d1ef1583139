/**
 * Account pre-hijacking (Sudhodanan & Paverd, USENIX Security 2022), IdP first: Mallory signs in
 * through a real OpenID provider (oidc-provider on 127.0.0.1) that never verified the address she
 * typed, the victim's. Later the victim proves the address with an e-mail link. The proof wins:
 * Mallory's link and every session she holds are gone, the victim keeps the user.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthConfig, OAuthConfig } from "../../src/index.js"
import { allowInsecureOAuthRequests } from "../../src/capabilities/oauth/index.js"
import { APP, browserFor, callbackOf, locationOf, sessionOf, signInAtLocalOP, testConfig, type LoggedError } from "../capabilities/oauth/helpers/app.js"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"
import { emailProvider, followLink, requestLink, type Outbox } from "../capabilities/email/helpers.js"
import { accountListingAdapter, type AccountListingAdapter } from "../helpers/account-listing-adapter.js"
import { Client } from "../helpers/harness.js"
import { memoryAdapter, type MemoryAdapter } from "../helpers/memory-adapter.js"

const VICTIM = "victim@example.com"
let op: LocalOP

beforeAll(async () => {
  op = await startLocalOP([callbackOf("op")])
})
afterAll(() => op.close())

function oidc(over: Partial<OAuthConfig> = {}): OAuthConfig {
  const base = { id: "op", name: "Local OP", type: "oidc", issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret, [allowInsecureOAuthRequests]: true }
  return { ...base, ...over } as unknown as OAuthConfig
}

interface Setup {
  adapter: MemoryAdapter
  config: AuthConfig
  outbox: Outbox
  errors: LoggedError[]
}

function setup(over: Partial<AuthConfig> = {}, adapter: MemoryAdapter = accountListingAdapter(), provider: Partial<OAuthConfig> = {}): Setup {
  const outbox: Outbox = { sent: [] }
  const errors: LoggedError[] = []
  const config = testConfig({ adapter, providers: [oidc(provider), emailProvider(outbox)], rateLimit: false, ...over }, errors)
  return { adapter, config, outbox, errors }
}

/** The victim asks for a link in their own browser and follows it. */
async function proveByEmail(s: Setup): Promise<{ victim: Client; done: Response }> {
  const victim = new Client(s.config, APP)
  await requestLink(victim, VICTIM)
  const { done } = await followLink(victim, s.outbox.sent.at(-1)!.url)
  return { victim, done }
}

describe.each([
  ["database", {}],
  ["jwt", { session: { strategy: "jwt" as const, checkRevocation: "every-request" as const } }],
])("an IdP that does not verify addresses, %s sessions", (_strategy, over) => {
  it("creates the user unverified; the victim's e-mail link removes Mallory's link and ends her session", async () => {
    const s = setup(over)
    const mallory = browserFor(s.config)
    await signInAtLocalOP(mallory, "op", "mallory")
    const [planted] = [...s.adapter.users.values()]
    expect(planted).toMatchObject({ email: VICTIM, emailVerified: null })
    expect((await sessionOf(mallory))?.user?.email).toBe(VICTIM)

    const { victim, done } = await proveByEmail(s)
    expect(done.status).toBe(302)
    expect(s.errors).toEqual([])
    // The victim keeps the user (and whatever the app stores under its id), now verified.
    expect(s.adapter.users.size).toBe(1)
    expect(s.adapter.users.get(planted!.id)).toMatchObject({ email: VICTIM, emailVerified: expect.any(Date) })
    expect(s.adapter.accounts.map((a) => [a.provider, a.userId])).toEqual([["email", planted!.id]])
    expect(((await victim.session()) as { user?: { email?: string } }).user?.email).toBe(VICTIM)
    // Mallory's session no longer reads as the victim.
    expect((await sessionOf(mallory))?.user).toBeUndefined()

    // Signing in at the IdP again does not get her back in: the address is verified, hers is not.
    const again = await signInAtLocalOP(mallory, "op", "mallory")
    expect(locationOf(again)).toBe(`${APP}/auth/error?error=OAuthAccountNotLinked`)
    expect(s.adapter.accounts.map((a) => a.provider)).toEqual(["email"])
    expect((await sessionOf(mallory))?.user).toBeUndefined()
  })
})

describe("the default profile and verification", () => {
  it("stores a user verified only when the provider says email_verified: true; that user keeps its links on an e-mail sign-in", async () => {
    const s = setup()
    const alice = browserFor(s.config)
    await signInAtLocalOP(alice, "op", "alice")
    await signInAtLocalOP(browserFor(s.config), "op", "mallory")
    const byEmail = new Map([...s.adapter.users.values()].map((u) => [u.email, u.emailVerified]))
    expect(byEmail.get("alice@example.com")).toBeInstanceOf(Date)
    expect(byEmail.get(VICTIM)).toBeNull()
    // The provider vouched for Alice's address: her own e-mail link removes nothing.
    const mailbox = new Client(s.config, APP)
    await requestLink(mailbox, "alice@example.com")
    await followLink(mailbox, s.outbox.sent.at(-1)!.url)
    expect(s.adapter.accounts.filter((a) => a.providerAccountId !== "mallory").map((a) => a.provider).sort()).toEqual(["email", "op"])
    expect((await sessionOf(alice))?.user?.email).toBe("alice@example.com")
  })
})

describe("allowDangerousEmailAccountLinking links only verified to verified", () => {
  it("refuses an unverified provider address for a verified user: OAuthAccountNotLinked, nothing written", async () => {
    const s = setup({}, accountListingAdapter(), { allowDangerousEmailAccountLinking: true })
    s.adapter.users.set("v", { id: "v", email: VICTIM, emailVerified: new Date(), name: "Victim" })
    const mallory = browserFor(s.config)
    const done = await signInAtLocalOP(mallory, "op", "mallory")
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=OAuthAccountNotLinked`)
    expect(s.adapter.writes()).toEqual([])
    expect((await sessionOf(mallory))?.user).toBeUndefined()
  })

  it("refuses a verified provider address for a user whose address was never verified", async () => {
    const s = setup({}, accountListingAdapter(), { allowDangerousEmailAccountLinking: true })
    s.adapter.users.set("planted", { id: "planted", email: "bob@example.com", emailVerified: null, name: "Planted" })
    const done = await signInAtLocalOP(browserFor(s.config), "op", "bob")
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=OAuthAccountNotLinked`)
    expect(s.adapter.accounts).toEqual([])
  })
})

describe("an adapter that cannot remove what was linked", () => {
  it("refuses the proof (Configuration), logs the missing methods, and writes nothing", async () => {
    const s = setup({}, memoryAdapter())
    await signInAtLocalOP(browserFor(s.config), "op", "mallory")
    const before = s.adapter.writes().length
    const { done } = await proveByEmail(s)
    expect(done.headers.get("location")).toContain("error=Configuration")
    expect(s.errors).toMatchObject([{ type: "MissingAdapterMethods", code: "ADAPTER_METHODS_MISSING" }])
    expect((s.errors[0]!.error as { cause: { missing: string[] } }).cause.missing).toEqual(["listAccountsByUserId", "unlinkAccount"])
    // The token is used up; nothing else changed: still unverified, still linked.
    expect(s.adapter.writes().slice(before)).toEqual(["createVerificationToken", "useVerificationToken"])
    expect([...s.adapter.users.values()][0]).toMatchObject({ emailVerified: null })
  })
})

describe("passkeys added while the address was unverified", () => {
  it("are deleted with the accounts when the address is proven", async () => {
    const adapter: AccountListingAdapter = accountListingAdapter()
    const s = setup({}, adapter)
    await signInAtLocalOP(browserFor(s.config), "op", "mallory")
    const [planted] = [...adapter.users.values()]
    adapter.authenticators.push({ credentialID: "cred-1", userId: planted!.id, providerAccountId: "cred-1", counter: 0, credentialBackedUp: false, credentialPublicKey: "AAAA", credentialDeviceType: "singleDevice" })
    adapter.accounts.push({ provider: "passkey", providerAccountId: "cred-1", type: "webauthn", userId: planted!.id })
    await proveByEmail(s)
    expect(adapter.authenticators).toEqual([])
    expect(adapter.accounts.map((a) => a.provider)).toEqual(["email"])
  })
})

describe("an interrupted clean-up", () => {
  it("leaves the user unverified (the first link fails), and the next link finishes it", async () => {
    const adapter = accountListingAdapter()
    const unlink = adapter.unlinkAccount!
    let failures = 1
    adapter.unlinkAccount = async (key) => {
      if (failures-- > 0) throw new Error("connection reset")
      await unlink(key)
    }
    const s = setup({}, adapter)
    const mallory = browserFor(s.config)
    await signInAtLocalOP(mallory, "op", "mallory")
    const first = await proveByEmail(s)
    expect(first.done.headers.get("location")).toContain("error=Configuration")
    expect([...adapter.users.values()][0]).toMatchObject({ emailVerified: null })
    expect(adapter.accounts.map((a) => a.provider)).toEqual(["op"])
    const second = await proveByEmail(s)
    expect(second.done.headers.get("location")).not.toContain("error")
    expect([...adapter.users.values()][0]).toMatchObject({ emailVerified: expect.any(Date) })
    expect(adapter.accounts.map((a) => a.provider)).toEqual(["email"])
    expect((await sessionOf(mallory))?.user).toBeUndefined()
  })
})
