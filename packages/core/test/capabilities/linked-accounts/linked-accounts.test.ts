/**
 * The sign-in methods linked to the signed-in user: listed without tokens, unlinked unless it is
 * the last way to sign in (another account of a configured provider, a passkey, or an e-mail
 * address with an e-mail provider count).
 */
import { describe, expect, it } from "vitest"
import { alice, Client, config, credentials } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { AccountManagementError, listLinkedAccounts, listSignInMethods, unlinkLinkedAccount, type AdapterAccount, type AuthConfig, type EmailConfig, type OAuthConfig } from "../../../src/index.js"

const github = { id: "github", name: "GitHub", type: "oauth", clientId: "c", clientSecret: "s", authorization: "https://github.example/authorize", token: "https://github.example/token", userinfo: "https://github.example/user" } as unknown as OAuthConfig

async function setup(extraAccounts: Array<Partial<AdapterAccount>> = []) {
  const adapter = memoryAdapter()
  const withList = Object.assign(adapter, {
    listAccountsByUserId: async (userId: string) => adapter.accounts.filter((a) => a.userId === userId).map((a) => ({ ...a })),
    unlinkAccount: async ({ provider, providerAccountId }: { provider: string; providerAccountId: string }) => {
      const i = adapter.accounts.findIndex((a) => a.provider === provider && a.providerAccountId === providerAccountId)
      return i < 0 ? undefined : adapter.accounts.splice(i, 1)[0]
    },
  })
  const cfg = config({ adapter: withList, providers: [credentials(), github], session: { strategy: "database" } })
  const client = new Client(cfg)
  expect((await client.signIn()).status).toBe(302)
  const userId = adapter.accounts[0]!.userId
  for (const extra of extraAccounts) adapter.accounts.push({ userId, type: "oauth", provider: "github", providerAccountId: "gh-1", access_token: "secret-token", ...extra } as AdapterAccount)
  const request = () => new Request("http://localhost:3000/account", { headers: { cookie: `authlib.session-token=${client.jar.get("authlib.session-token")}` } })
  return { adapter, cfg, request }
}

describe("linked sign-in methods", () => {
  it("lists the user's methods with the provider's name, type and whether it can be unlinked, never a token", async () => {
    const { cfg, request } = await setup([{}])
    const listed = await listLinkedAccounts(request(), cfg)
    expect(listed).toEqual([
      { provider: "credentials", name: "Password", type: "credentials", unlinkable: false },
      { provider: "github", name: "GitHub", type: "oauth", unlinkable: true },
    ])
    expect(JSON.stringify(listed)).not.toContain("secret-token")
  })

  it("unlinks an IdP account while another way in remains; an unknown provider is ACCOUNT_UNKNOWN", async () => {
    const { cfg, request, adapter } = await setup([{}])
    expect(await unlinkLinkedAccount(request(), cfg, { provider: "github" })).toEqual({ provider: "github", name: "GitHub", type: "oauth", unlinkable: true })
    expect(adapter.accounts.map((a) => a.provider)).toEqual(["credentials"])
    expect(await unlinkLinkedAccount(request(), cfg, { provider: "gitlab" }).catch((e: unknown) => e)).toMatchObject({ code: "ACCOUNT_UNKNOWN", status: 404 })
    expect(await unlinkLinkedAccount(request(), cfg, { provider: "" }).catch((e: unknown) => e)).toMatchObject({ code: "ACCOUNT_PROVIDER_MISSING" })
  })

  it("a password's account is not unlinked (the password would still sign in): ACCOUNT_NOT_UNLINKABLE, nothing changed", async () => {
    const { cfg, request, adapter } = await setup([{}])
    const refused = await unlinkLinkedAccount(request(), cfg, { provider: "credentials" }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(AccountManagementError)
    expect(refused).toMatchObject({ code: "ACCOUNT_NOT_UNLINKABLE", status: 409 })
    expect(adapter.accounts.map((a) => a.provider)).toEqual(["credentials", "github"])
  })

  it("the last way in is refused: an IdP account when the password's provider is gone from the configuration", async () => {
    const { cfg, request, adapter } = await setup([{}])
    const withoutPassword = { ...cfg, providers: cfg.providers.filter((p) => (p as { type: string }).type !== "credentials") }
    const last = await unlinkLinkedAccount(request(), withoutPassword, { provider: "github" }).catch((e: unknown) => e)
    expect(last).toMatchObject({ code: "LAST_SIGN_IN_METHOD", status: 409 })
    expect(adapter.accounts).toHaveLength(2)
  })

  it("an account of a provider no longer configured is no way in", async () => {
    const { cfg, request, adapter } = await setup([{ provider: "retired", providerAccountId: "r-1" }])
    const onlyGithub = { ...cfg, providers: cfg.providers.filter((p) => (p as { type: string }).type !== "credentials") }
    adapter.accounts.push({ userId: adapter.accounts[0]!.userId, type: "oauth", provider: "github", providerAccountId: "gh-1" } as AdapterAccount)
    expect(await unlinkLinkedAccount(request(), onlyGithub, { provider: "github" }).catch((e: unknown) => e)).toMatchObject({ code: "LAST_SIGN_IN_METHOD" })
  })

  it("two concurrent unlinks of the last two IdP accounts leave one: the second check puts its account back", async () => {
    const { cfg, request, adapter } = await setup([{}, { provider: "gitlab", providerAccountId: "gl-1" }])
    const gitlab = { ...(cfg.providers[1] as object), id: "gitlab", name: "GitLab" } as OAuthConfig
    const idpsOnly = { ...cfg, providers: [cfg.providers[1]!, gitlab] }
    const results = await Promise.allSettled([
      unlinkLinkedAccount(request(), idpsOnly, { provider: "github" }),
      unlinkLinkedAccount(request(), idpsOnly, { provider: "gitlab" }),
    ])
    const left = adapter.accounts.filter((a) => a.type === "oauth").map((a) => a.provider)
    expect(left.length).toBeGreaterThanOrEqual(1)
    expect(results.filter((r) => r.status === "fulfilled").length).toBe(2 - left.length)
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "LAST_SIGN_IN_METHOD" })
  })

  it("listSignInMethods: IdP accounts, the password, and e-mail links only to a verified address, each with how it is removed", async () => {
    const { cfg, request, adapter } = await setup([{}])
    const email = { id: "email", name: "Email", type: "email", sendVerificationRequest: async () => {} } as unknown as EmailConfig
    const withEmail = { ...cfg, providers: [...cfg.providers, email] }
    const userId = adapter.accounts[0]!.userId
    adapter.users.set(userId, { ...adapter.users.get(userId)!, emailVerified: null })
    expect(await listSignInMethods(request(), withEmail)).toEqual([
      { kind: "password", provider: "credentials", name: "Password", count: 1, removal: null },
      { kind: "idp", provider: "github", name: "GitHub", count: 1, removal: "unlink" },
    ])
    adapter.users.set(userId, { ...adapter.users.get(userId)!, emailVerified: new Date() })
    expect((await listSignInMethods(request(), withEmail)).map((m) => m.kind)).toEqual(["password", "idp", "email"])
    expect(await listSignInMethods(new Request("http://localhost:3000/"), withEmail).catch((e: unknown) => e)).toMatchObject({ type: "SessionRequired" })
  })

  it("an IdP-only user whose address nobody verified cannot unlink the IdP: e-mail links to that address are no way in", async () => {
    const { cfg, request, adapter } = await setup([{}])
    const email = { id: "email", name: "Email", type: "email", sendVerificationRequest: async () => {} } as unknown as EmailConfig
    const idpAndEmail = { ...cfg, providers: [cfg.providers[1]!, email] }
    const userId = adapter.accounts[0]!.userId
    adapter.users.set(userId, { ...adapter.users.get(userId)!, emailVerified: null })
    expect(await unlinkLinkedAccount(request(), idpAndEmail, { provider: "github" }).catch((e: unknown) => e)).toMatchObject({ code: "LAST_SIGN_IN_METHOD" })
    // Once the address is verified, the e-mail link is a real way in and the IdP may go.
    adapter.users.set(userId, { ...adapter.users.get(userId)!, emailVerified: new Date() })
    expect(await unlinkLinkedAccount(request(), idpAndEmail, { provider: "github" })).toMatchObject({ provider: "github" })
  })

  it("without a session: SessionRequired", async () => {
    const { cfg } = await setup()
    expect(await listLinkedAccounts(new Request("http://localhost:3000/"), cfg).catch((e: unknown) => e)).toMatchObject({ type: "SessionRequired" })
  })
})

describe("the password just used, under JWT sessions (no credentials account is stored)", () => {
  /** Alice stored (a JWT session acts for a stored user), her GitHub account linked, signed in with her password under JWT. */
  async function jwtSetup(providers: AuthConfig["providers"] = [credentials(), github]) {
    const adapter = memoryAdapter()
    adapter.users.set(alice.id!, { ...alice, id: alice.id!, email: alice.email!, emailVerified: null })
    adapter.accounts.push({ userId: alice.id!, type: "oauth", provider: "github", providerAccountId: "gh-1" } as AdapterAccount)
    const withList = Object.assign(adapter, { listAccountsByUserId: async (userId: string) => adapter.accounts.filter((a) => a.userId === userId).map((a) => ({ ...a })) })
    const cfg = config({ adapter: withList, providers, session: { strategy: "jwt" } })
    const client = new Client(cfg)
    expect((await client.signIn()).status).toBe(302)
    expect(adapter.accounts.map((a) => a.type)).toEqual(["oauth"])
    const request = () => new Request("http://localhost:3000/account", { headers: { cookie: `authlib.session-token=${client.jar.get("authlib.session-token")}` } })
    return { cfg, request }
  }

  it("is listed: the session's first factor was the configured credentials provider's password", async () => {
    const { cfg, request } = await jwtSetup()
    expect(await listSignInMethods(request(), cfg)).toEqual([
      { kind: "idp", provider: "github", name: "GitHub", count: 1, removal: "unlink" },
      { kind: "password", provider: "credentials", name: "Password", count: 1, removal: null },
    ])
  })

  it("is not listed when the credentials provider is no longer configured, or when two are and the session cannot say which one signed in", async () => {
    const { cfg, request } = await jwtSetup()
    const withoutPassword = { ...cfg, providers: [github] }
    expect((await listSignInMethods(request(), withoutPassword)).map((m) => m.kind)).toEqual(["idp"])
    const twoPasswords = { ...cfg, providers: [credentials(), credentials({ id: "pin", name: "PIN" }), github] }
    expect((await listSignInMethods(request(), twoPasswords)).map((m) => m.kind)).toEqual(["idp"])
  })
})
