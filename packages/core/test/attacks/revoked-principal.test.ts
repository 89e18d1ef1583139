/**
 * A stolen session cookie, copied before its user ended their sessions, must not act for them on
 * any privileged path: not register a passkey (which would mint a fresh session), not manage
 * passkeys, linked accounts or sessions, not read a provider token, not update the session, not
 * link the thief's IdP account. JWT sessions in both revocation modes (`on-reissue` reads may go on
 * until `updateAge`; actions may not), and database sessions.
 */
import { describe, expect, it } from "vitest"
import {
  deletePasskey, getAccessToken, listLinkedAccounts, listPasskeys, listSessions, renamePasskey, revokeOtherSessions,
  revokeUserSessions, signOutEverywhere, unlinkLinkedAccount, type AdapterAccount, type AuthConfig, type OAuthConfig,
} from "../../src/index.js"
import { alice, Client, setCookies } from "../helpers/harness.js"
import { cookieHeader } from "../capabilities/passkey-management/helpers.js"
import { options, registerPasskey, setup, type PasskeySetup } from "../capabilities/webauthn/setup.js"

const COOKIE = "authlib.session-token"
const op = { id: "op", name: "Local OP", type: "oidc", issuer: "https://op.example", clientId: "c", clientSecret: "s" } as unknown as OAuthConfig

type Mode = "on-reissue" | "every-request" | "database"

/** Alice with a passkey and an IdP account holding a fresh access token, signed in in one browser. */
async function aliceEverywhere(mode: Mode): Promise<PasskeySetup & { cfg: AuthConfig }> {
  const session = mode === "database" ? { strategy: "database" as const } : { strategy: "jwt" as const, checkRevocation: mode }
  const s = setup(mode === "database" ? "database" : "jwt", {})
  const adapter = Object.assign(s.adapter, {
    getAccount: (providerAccountId: string, provider: string) => s.adapter.accounts.find((a) => a.provider === provider && a.providerAccountId === providerAccountId) ?? null,
    updateAccount: () => null,
  })
  const cfg: AuthConfig = { ...s.config, adapter, session, providers: [...s.config.providers, op] }
  const ready: PasskeySetup & { cfg: AuthConfig } = { ...s, client: new Client(cfg), config: cfg, cfg }
  expect((await registerPasskey(ready)).status).toBe(302)
  s.adapter.accounts.push({ userId: alice.id!, type: "oidc", provider: "op", providerAccountId: "alice-at-op", access_token: "op-access-token", expires_at: Math.floor(Date.now() / 1000) + 3600, token_type: "bearer" } as AdapterAccount)
  return ready
}

/** A copy of the browser's cookies, as a thief would take them, then the victim ends their sessions. */
async function stolenThenRevoked(s: PasskeySetup & { cfg: AuthConfig }, how: "sign-out-everywhere" | "revoke-others" | "app"): Promise<Client> {
  const thief = new Client(s.cfg)
  for (const [name, value] of s.client.jar) thief.jar.set(name, value)
  const victim = new Request("http://localhost:3000/account", { headers: { cookie: cookieHeader(s.client) } })
  if (how === "sign-out-everywhere") await signOutEverywhere(victim, s.cfg)
  else if (how === "revoke-others") {
    // The victim signs in again on another device and ends every session but that one.
    const other = new Client(s.cfg)
    expect((await other.signIn()).status).toBe(302)
    await revokeOtherSessions(new Request("http://localhost:3000/account", { headers: { cookie: cookieHeader(other) } }), s.cfg)
  } else await revokeUserSessions(s.cfg, alice.id!)
  return thief
}

const asThief = (thief: Client) => new Request("http://localhost:3000/account", { headers: { cookie: cookieHeader(thief) } })
const failure = (p: Promise<unknown>) => p.then(() => "succeeded", (e: unknown) => e)

describe.each<Mode>(["on-reissue", "every-request", "database"])("a revoked session cannot act (%s)", (mode) => {
  it.each(["sign-out-everywhere", "revoke-others", "app"] as const)("after %s: no passkey registration, no management, no provider token, no session update", async (how) => {
    const s = await aliceEverywhere(mode)
    const [passkey] = await listPasskeys(new Request("http://localhost:3000/", { headers: { cookie: cookieHeader(s.client) } }), s.cfg)
    const thief = await stolenThenRevoked(s, how)
    const before = JSON.stringify({ authenticators: [...s.adapter.authenticators.values()], accounts: s.adapter.accounts })

    // Registration options are those of a visitor, never Alice's.
    const { res, body } = await options(thief, "?action=register")
    expect(res.status === 200 ? body.options.user.name : body.code).not.toBe(alice.email)
    expect(JSON.stringify(body)).not.toContain(alice.email)

    // Passkey management over HTTP and as server functions.
    const listed = await thief.request("/auth/passkeys")
    expect(listed.status).toBe(401)
    expect(await listed.json()).toMatchObject({ error: "SessionRequired", code: "SESSION_MISSING" })
    expect((await thief.post("/auth/passkeys", { action: "rename", id: passkey!.id, name: "mine now" })).status).toBe(401)
    expect((await thief.post("/auth/passkeys", { action: "delete", id: passkey!.id })).status).toBe(401)
    for (const call of [
      listPasskeys(asThief(thief), s.cfg),
      renamePasskey(asThief(thief), s.cfg, { id: passkey!.id, name: "mine now" }),
      deletePasskey(asThief(thief), s.cfg, { id: passkey!.id }),
      listLinkedAccounts(asThief(thief), s.cfg),
      unlinkLinkedAccount(asThief(thief), s.cfg, { provider: "op" }),
      getAccessToken(asThief(thief), s.cfg, "op"),
    ])
      expect(await failure(call)).toMatchObject({ type: "SessionRequired", code: "SESSION_MISSING" })

    // Session management: listing (database) or ending the others (both) is refused too.
    if (mode === "database") expect(await failure(listSessions(asThief(thief), s.cfg))).toMatchObject({ type: "SessionRequired" })
    expect(await failure(revokeOtherSessions(asThief(thief), s.cfg))).toMatchObject({ type: "SessionRequired" })
    expect((await thief.post("/auth/sessions", { action: "revoke-others" })).status).toBe(401)

    // A session update (POST /session) answers no session and re-issues nothing.
    const csrfToken = await thief.csrfToken()
    const update = await thief.request("/auth/session", { method: "POST", json: { csrfToken, data: { name: "x" } } })
    expect(await update.json()).toBeNull()
    expect(thief.jar.has(COOKIE)).toBe(false)

    expect(JSON.stringify({ authenticators: [...s.adapter.authenticators.values()], accounts: s.adapter.accounts })).toBe(before)
  })

  it("a revoked session cannot finish registering a passkey started before the revocation", async () => {
    const s = await aliceEverywhere(mode)
    const { body } = await options(s.client, "?action=register")
    const thief = await stolenThenRevoked(s, "sign-out-everywhere")
    const count = s.adapter.authenticators.size
    const res = await thief.post("/auth/callback/passkey", { action: "register", data: JSON.stringify(s.device.register(body.options)) })
    expect(res.headers.get("location")).toContain("error=")
    expect(setCookies(res).filter((c) => c.name === COOKIE && c.value !== "")).toEqual([])
    expect(s.adapter.authenticators.size).toBe(count)
  })
})

describe("the epoch is checked on every privileged action in on-reissue mode, not on reads", () => {
  it("GET /session of a revoked token still reads until updateAge (documented), while every action refuses", async () => {
    const s = await aliceEverywhere("on-reissue")
    const thief = await stolenThenRevoked(s, "app")
    expect(await thief.session()).toMatchObject({ user: { email: alice.email } })
    expect(await failure(listPasskeys(asThief(thief), s.cfg))).toMatchObject({ type: "SessionRequired" })
  })

  it("a JWT whose user was deleted cannot act even without an epoch-keeping adapter", async () => {
    const s = await aliceEverywhere("on-reissue")
    const { getUserSessionEpoch: _g, incrementUserSessionEpoch: _i, ...noEpochs } = s.adapter
    const cfg: AuthConfig = { ...s.cfg, adapter: noEpochs }
    const request = new Request("http://localhost:3000/", { headers: { cookie: cookieHeader(s.client) } })
    expect(await listPasskeys(request, cfg)).toHaveLength(1)
    s.adapter.users.delete(alice.id!)
    expect(await failure(listPasskeys(new Request("http://localhost:3000/", { headers: { cookie: cookieHeader(s.client) } }), { ...cfg }))).toMatchObject({ type: "SessionRequired" })
  })
})
