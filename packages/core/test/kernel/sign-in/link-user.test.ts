/**
 * issueSession with results shaped like the OAuth and e-mail flows will produce (those flows plug
 * in later): signUp trigger, account linking, e-mail linking rules, e-mail verification.
 */
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../../src/kernel/config/resolve.js"
import { contextOf } from "../../../src/kernel/http/context.js"
import { parseRequest } from "../../../src/kernel/http/parse-request.js"
import type { AuthRequest } from "../../../src/kernel/types/http.js"
import { issueSession } from "../../../src/kernel/sign-in/issue.js"
import type { SignInResult } from "../../../src/kernel/types/sign-in.js"
import type { AuthConfig } from "../../../src/index.js"
import { config, ORIGIN } from "../../helpers/harness.js"
import { configured, REGISTRY } from "../../../src/registry.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { accountListingAdapter } from "../../helpers/account-listing-adapter.js"
import type { MemoryAdapter } from "../../helpers/memory-adapter.js"

async function setup(over: Partial<AuthConfig> = {}, cookie?: string) {
  const cfg = resolveConfig(configured(config(over)))
  const req = (await parseRequest(new Request(`${ORIGIN}/auth/callback/github`, cookie ? { headers: { cookie } } : {}), "/auth", REGISTRY)) as AuthRequest
  return { req, ctx: contextOf(req, cfg) }
}

const github = (over: Partial<SignInResult> = {}): SignInResult => ({
  user: { id: "gh-42", name: "Octo", email: "octo@example.com", image: null },
  account: { provider: "github", providerAccountId: "42", type: "oauth", access_token: "at" },
  profile: { id: "42", login: "octo" },
  ...over,
})

describe("issueSession with an OAuth-shaped result", () => {
  it("JWT + adapter: first sign-in creates the user (trigger signUp), the next is signIn", async () => {
    const adapter = memoryAdapter()
    const triggers: unknown[] = []
    const over = { adapter, session: { strategy: "jwt" as const }, callbacks: { jwt: (p: { token: Record<string, unknown>; trigger?: string; profile?: unknown }) => (triggers.push([p.trigger, p.profile]), p.token) } }
    const first = await setup(over)
    await issueSession(first.req, first.ctx, github(), ORIGIN)
    const again = await setup(over)
    await issueSession(again.req, again.ctx, github(), ORIGIN)
    expect(triggers).toEqual([["signUp", { id: "42", login: "octo" }], ["signIn", { id: "42", login: "octo" }]])
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts[0]).toMatchObject({ provider: "github", providerAccountId: "42", access_token: "at" })
  })

  it("refuses to link to an existing user with the same e-mail unless allowed, and both addresses are verified", async () => {
    const adapter = memoryAdapter()
    adapter.users.set("u-1", { id: "u-1", email: "octo@example.com", emailVerified: new Date() })
    const { req, ctx } = await setup({ adapter })
    const verified = { id: "gh-42", name: "Octo", email: "octo@example.com", image: null, emailVerified: new Date() }
    await expect(issueSession(req, ctx, github({ user: verified }), ORIGIN)).rejects.toMatchObject({ type: "OAuthAccountNotLinked", code: "EMAIL_ALREADY_LINKED" })
    await expect(issueSession(req, ctx, github({ own: { allowEmailLinking: true } }), ORIGIN)).rejects.toMatchObject({ type: "OAuthAccountNotLinked", code: "EMAIL_ALREADY_LINKED" })
    adapter.users.set("u-1", { id: "u-1", email: "octo@example.com", emailVerified: null })
    await expect(issueSession(req, ctx, github({ user: verified, own: { allowEmailLinking: true } }), ORIGIN)).rejects.toMatchObject({ type: "OAuthAccountNotLinked", code: "EMAIL_ALREADY_LINKED" })
    expect(adapter.writes()).toEqual([])
    adapter.users.set("u-1", { id: "u-1", email: "octo@example.com", emailVerified: new Date() })
    await issueSession(req, ctx, github({ user: verified, own: { allowEmailLinking: true } }), ORIGIN)
    expect(adapter.accounts[0]).toMatchObject({ userId: "u-1" })
  })

  it("links a new account to the user already signed in", async () => {
    const adapter = memoryAdapter()
    const first = await setup({ adapter })
    const res = await issueSession(first.req, first.ctx, github(), ORIGIN)
    const token = res.cookies!.find((c) => c.name === "authlib.session-token")!.value
    const second = await setup({ adapter }, `authlib.session-token=${token}`)
    await issueSession(second.req, second.ctx, github({ user: { id: "gl-1", email: "other@example.com" }, account: { provider: "gitlab", providerAccountId: "1", type: "oauth" } }), ORIGIN)
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts.map((a) => a.provider)).toEqual(["github", "gitlab"])
  })

  it("refuses an account that belongs to another user while signed in", async () => {
    const adapter: MemoryAdapter = memoryAdapter()
    const a = await setup({ adapter })
    await issueSession(a.req, a.ctx, github(), ORIGIN)
    const b = await setup({ adapter })
    const res = await issueSession(b.req, b.ctx, github({ user: { id: "x", email: "b@example.com" }, account: { provider: "gitlab", providerAccountId: "9", type: "oauth" } }), ORIGIN)
    const token = res.cookies!.find((c) => c.name === "authlib.session-token")!.value
    const c = await setup({ adapter }, `authlib.session-token=${token}`)
    await expect(issueSession(c.req, c.ctx, github(), ORIGIN)).rejects.toMatchObject({ type: "OAuthAccountNotLinked", code: "ACCOUNT_OWNED_BY_OTHER_USER" })
  })

  it("an e-mail sign-in marks an existing user verified (updateUser) and links an email account", async () => {
    const adapter = accountListingAdapter()
    adapter.users.set("u-1", { id: "u-1", email: "mail@example.com", emailVerified: null })
    const events: string[] = []
    const { req, ctx } = await setup({ adapter, events: { updateUser: () => void events.push("updateUser"), linkAccount: () => void events.push("linkAccount") } })
    await issueSession(req, ctx, { user: { email: "mail@example.com" }, account: { provider: "email", providerAccountId: "mail@example.com", type: "email" } }, ORIGIN)
    expect(adapter.users.get("u-1")!.emailVerified).toBeInstanceOf(Date)
    expect(events).toEqual(["updateUser", "linkAccount"])
  })

  it("an e-mail sign-in creates a verified user when none exists", async () => {
    const adapter = memoryAdapter()
    const { req, ctx } = await setup({ adapter })
    await issueSession(req, ctx, { user: { email: "new@example.com" }, account: { provider: "email", providerAccountId: "new@example.com", type: "email" } }, ORIGIN)
    expect([...adapter.users.values()][0]).toMatchObject({ email: "new@example.com", emailVerified: expect.any(Date) })
  })

  it("passes the flow's own cookies through, also when signIn redirects", async () => {
    const { req, ctx } = await setup({ callbacks: { signIn: () => "/wait" } })
    const cleared = { name: "authlib.pkce.code_verifier", value: "", options: { maxAge: 0 } }
    const res = await issueSession(req, ctx, github({ cookies: [cleared] }), ORIGIN)
    expect(res).toEqual({ redirect: `${ORIGIN}/wait`, cookies: [cleared] })
  })
})
