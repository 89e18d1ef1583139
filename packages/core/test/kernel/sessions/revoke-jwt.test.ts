/**
 * Ending JWT sessions before they expire: the per-user session epoch. A token carries the epoch it
 * was issued under (claim `sessionEpoch`); once the user's epoch moves on (`revokeUserSessions`,
 * signing out everywhere, ending the other sessions) the token is refused at its next re-issue, or
 * at once with `checkRevocation: "every-request"`. Forged-looking claims (future, malformed) are
 * refused; with no adapter that keeps epochs, revocation says plainly that it cannot be done.
 */
import { decode, encode, type JWT } from "@authlib/jwt"
import { describe, expect, it } from "vitest"
import { alice, Client, config, recordingLogger, SECRET } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { Auth, revokeOtherSessions, revokeUserSessions, signOutEverywhere, type AuthConfig } from "../../../src/index.js"

const COOKIE = "authlib.session-token"

/** JWT sessions with an adapter that stores alice (so she has an epoch). */
function setup(session: NonNullable<AuthConfig["session"]> = {}) {
  const adapter = memoryAdapter()
  adapter.users.set(alice.id!, { id: alice.id!, name: alice.name!, email: alice.email!, emailVerified: null, image: null })
  const logger = recordingLogger()
  const cfg = config({ adapter, session: { strategy: "jwt", ...session }, logger: logger.logger })
  return { adapter, cfg, logger }
}

async function browser(cfg: AuthConfig) {
  const client = new Client(cfg)
  expect((await client.signIn()).status).toBe(302)
  return client
}

const requestOf = (client: Client) => new Request("http://localhost:3000/account", { headers: { cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ") } })
const tokenOf = async (client: Client) => (await decode({ token: client.jar.get(COOKIE)!, secret: SECRET, salt: COOKIE })) as JWT

/** Puts `Set-Cookie` values into the client's jar, as a browser would. */
function apply(client: Client, setCookie: string[]) {
  for (const line of setCookie) {
    const [pair] = line.split(";")
    const [name, value] = [pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1)]
    if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) client.jar.delete(name)
    else client.jar.set(name, value)
  }
}

describe("JWT sessions carry their user's epoch", () => {
  it("a sign-in writes the user's current epoch into the token, after the jwt callback (which cannot drop it)", async () => {
    const { cfg, adapter } = setup()
    adapter.epochs.set(alice.id!, 4)
    const withCallback = { ...cfg, callbacks: { jwt: ({ token }: { token: JWT }) => ({ sub: token.sub, name: token.name }) } }
    const client = await browser(withCallback)
    expect((await tokenOf(client)).sessionEpoch).toBe(4)
  })

  it("a user the adapter does not store gets no epoch claim, and revoking for them says it cannot", async () => {
    const adapter = memoryAdapter()
    const cfg = config({ adapter, session: { strategy: "jwt" } })
    const client = await browser(cfg)
    expect((await tokenOf(client)).sessionEpoch).toBeUndefined()
    expect(await revokeOtherSessions(requestOf(client), cfg).catch((e: unknown) => e)).toMatchObject({ type: "SessionManagementError", code: "REVOCATION_UNAVAILABLE" })
    expect(await client.session()).toMatchObject({ user: { email: alice.email } })
  })
})

describe("revoking JWT sessions", () => {
  it("revokeOtherSessions: the other browser is refused at its next re-issue; this one goes on with the re-issued cookie", async () => {
    const { cfg } = setup({ updateAge: 0 })
    const [a, b] = [await browser(cfg), await browser(cfg)]
    const stale = b.jar.get(COOKIE)!
    const result = await revokeOtherSessions(requestOf(b), cfg)
    expect(result.revoked).toBeNull()
    expect(result.setCookie).toHaveLength(1)
    apply(b, result.setCookie)
    expect(await a.session()).toBeNull()
    expect(a.jar.has(COOKIE)).toBe(false)
    expect(await b.session()).toMatchObject({ user: { email: alice.email } })
    // Without the re-issued cookie, b's old token would have been refused too.
    const old = new Client(cfg)
    old.jar.set(COOKIE, stale)
    expect(await old.session()).toBeNull()
  })

  it("on-reissue (default): a revoked token still reads until updateAge has passed; every-request: refused at once", async () => {
    const lazy = setup()
    const lazyBrowser = await browser(lazy.cfg)
    expect(await revokeUserSessions(lazy.cfg, alice.id!)).toBeNull()
    expect(await lazyBrowser.session()).toMatchObject({ user: { email: alice.email } })
    const lazyReads = lazy.adapter.calls.filter((c) => c.method === "getUserSessionEpoch").length
    await lazyBrowser.session()
    // No adapter read per request while the token is not due.
    expect(lazy.adapter.calls.filter((c) => c.method === "getUserSessionEpoch").length).toBe(lazyReads)

    const strict = setup({ checkRevocation: "every-request" })
    const strictBrowser = await browser(strict.cfg)
    expect(await strictBrowser.session()).toMatchObject({ user: { email: alice.email } })
    await revokeUserSessions(strict.cfg, alice.id!)
    expect(await strictBrowser.session()).toBeNull()
    expect(strictBrowser.jar.has(COOKIE)).toBe(false)
    // Signing in again issues a token under the new epoch.
    expect((await strictBrowser.signIn()).status).toBe(302)
    expect((await tokenOf(strictBrowser)).sessionEpoch).toBe(1)
    expect(await strictBrowser.session()).toMatchObject({ user: { email: alice.email } })
  })

  it("signOutEverywhere ends every token of the user, this one included (its cookie cleared)", async () => {
    const { cfg } = setup({ checkRevocation: "every-request" })
    const [a, b] = [await browser(cfg), await browser(cfg)]
    const result = await signOutEverywhere(requestOf(b), cfg)
    expect(result.revoked).toBeNull()
    apply(b, result.setCookie)
    expect(b.jar.has(COOKIE)).toBe(false)
    expect(await a.session()).toBeNull()
  })

  it("POST /auth/sessions revoke-all and revoke-others need the CSRF token and a same-origin request", async () => {
    const { cfg, adapter } = setup({ checkRevocation: "every-request" })
    const [a, b] = [await browser(cfg), await browser(cfg)]
    expect((await b.request("/auth/sessions", { method: "POST", form: { action: "revoke-all" } })).status).toBe(403)
    const csrfToken = await b.csrfToken()
    const crossSite = await b.request("/auth/sessions", { method: "POST", form: { action: "revoke-all", csrfToken }, headers: { origin: "https://evil.example" } })
    expect(crossSite.status).toBe(403)
    expect(adapter.epochs.get(alice.id!) ?? 0).toBe(0)
    expect(await a.session()).toMatchObject({ user: { email: alice.email } })
    const others = await b.post("/auth/sessions", { action: "revoke-others" })
    expect(await others.json()).toEqual({ revoked: null })
    expect(await a.session()).toBeNull()
    expect(await b.session()).toMatchObject({ user: { email: alice.email } })
    const all = await b.post("/auth/sessions", { action: "revoke-all" })
    expect(await all.json()).toEqual({ revoked: null })
    expect(b.jar.has(COOKIE)).toBe(false)
    expect(adapter.epochs.get(alice.id!)).toBe(2)
  })

  it("a revoked session cannot end the others (nor bring itself back)", async () => {
    const { cfg, adapter } = setup()
    const [a, b] = [await browser(cfg), await browser(cfg)]
    await revokeUserSessions(cfg, alice.id!)
    expect(await revokeOtherSessions(requestOf(b), cfg).catch((e: unknown) => e)).toMatchObject({ type: "SessionRequired" })
    expect(adapter.epochs.get(alice.id!)).toBe(1)
    expect(a).toBeDefined()
  })
})

describe("epoch claims that no token of ours carries", () => {
  async function withToken(cfg: AuthConfig, token: JWT) {
    const value = await encode({ token, secret: SECRET, salt: COOKIE })
    return Auth(new Request("http://localhost:3000/auth/session", { headers: { cookie: `${COOKIE}=${value}` } }), cfg)
  }
  const base = { sub: alice.id!, name: alice.name, email: alice.email }

  it("a missing claim is epoch 0: accepted until the user's first revocation, refused after", async () => {
    const { cfg, adapter } = setup({ checkRevocation: "every-request" })
    expect(await (await withToken(cfg, base)).json()).toMatchObject({ user: { email: alice.email } })
    adapter.epochs.set(alice.id!, 1)
    expect(await (await withToken(cfg, base)).json()).toBeNull()
  })

  it("a claim in the future, negative, fractional or not a number is refused, its cookie cleared, and logged as a warning", async () => {
    const { cfg, logger } = setup({ checkRevocation: "every-request" })
    for (const sessionEpoch of [5, -1, 0.5, "0", null, { n: 0 }]) {
      const res = await withToken(cfg, { ...base, sessionEpoch } as JWT)
      expect(await res.json(), JSON.stringify(sessionEpoch)).toBeNull()
      expect(res.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=;`))).toBe(true)
    }
    expect(logger.entries.filter((e) => e.level === "warn" && e.code === "session-revoked")).toHaveLength(6)
  })

  it("a token with a claim whose user was deleted is refused", async () => {
    const { cfg, adapter } = setup({ checkRevocation: "every-request" })
    const client = await browser(cfg)
    adapter.users.delete(alice.id!)
    expect(await client.session()).toBeNull()
  })

  it("an unknown checkRevocation value stops start-up with the option named", async () => {
    const { cfg } = setup({ checkRevocation: "sometimes" as "on-reissue" })
    const res = await Auth(new Request("http://localhost:3000/auth/session"), cfg)
    expect(res.status).toBe(500)
    await expect(revokeUserSessions(cfg, alice.id!)).rejects.toMatchObject({ code: "SESSION_OPTION_INVALID", message: expect.stringContaining("session.checkRevocation") })
  })
})

describe("every-request revocation needs an adapter that keeps epochs", () => {
  it("with JWT sessions and no epoch-keeping adapter (none, or one without the methods) start-up stops with the option named", async () => {
    const { getUserSessionEpoch: _g, incrementUserSessionEpoch: _i, ...noEpochs } = memoryAdapter()
    for (const adapter of [undefined, noEpochs]) {
      const { logger, entries } = recordingLogger()
      const cfg = config({ adapter, logger, session: { strategy: "jwt", checkRevocation: "every-request" } })
      const res = await Auth(new Request("http://localhost:3000/auth/session"), cfg)
      expect(res.status).toBe(500)
      expect(entries.find((e) => e.level === "error")?.message[0]).toMatchObject({ code: "SESSION_OPTION_INVALID", message: expect.stringContaining("keeps no epochs") })
    }
  })
})

describe("revokeUserSessions names what it could not do", () => {
  it("an unknown user is USER_UNKNOWN (404), not a silent null, in both strategies; nothing moves", async () => {
    for (const strategy of ["jwt", "database"] as const) {
      const { adapter, cfg } = setup()
      const withList = Object.assign(adapter, { deleteSessionsByUserId: adapter.deleteSessionsByUserId, listSessionsByUserId: adapter.listSessionsByUserId })
      const config_ = { ...cfg, adapter: withList, session: { strategy } }
      const err = await revokeUserSessions(config_, "no-such-user").catch((e: unknown) => e)
      expect(err).toMatchObject({ type: "SessionManagementError", code: "USER_UNKNOWN", status: 404 })
      expect(adapter.epochs.size).toBe(0)
      expect(await revokeUserSessions(config_, alice.id!)).toBe(strategy === "jwt" ? null : 0)
    }
  })
})
