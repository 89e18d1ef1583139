/**
 * `session.absoluteMaxAge` through the public API, both strategies: a session ends that many
 * seconds after its sign-in whatever happens in between (sliding renewal, session updates, a `jwt`
 * callback, re-issue), reads past it as no session and cannot act; off by default.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { encode } from "@authlib/jwt"
import type { AuthConfig, JWT } from "../../../src/index.js"
import { Auth, requireRecentAuthentication, SessionRequired } from "../../../src/index.js"
import { alice, Client, config as baseConfig, ORIGIN, recordingLogger, SECRET, setCookies } from "../../helpers/harness.js"
import { memoryAdapter, type MemoryAdapter } from "../../helpers/memory-adapter.js"
import { advanceSeconds, appRequest, sessionCookie } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)
const HOUR = 3600
const DAY = 24 * HOUR
/** The cap in these tests: one day, under a sliding `maxAge` of a week renewed on every read. */
const CAP = DAY

function setup(strategy: "jwt" | "database", session: Partial<NonNullable<AuthConfig["session"]>> = {}, adapter: MemoryAdapter = memoryAdapter()) {
  // A JWT principal's user must still be stored where an adapter can say (database sessions store it at sign-in).
  if (strategy === "jwt") adapter.users.set(alice.id!, { id: alice.id!, name: alice.name ?? null, email: alice.email!, emailVerified: null })
  const config = baseConfig({ adapter, session: { strategy, maxAge: 7 * DAY, updateAge: 0, absoluteMaxAge: CAP, ...session }, rateLimit: false })
  return { adapter, config }
}

/** GET /session: its body and the expiry of the session cookie it sets (if any). */
async function read(client: Client): Promise<{ session: { expires: string } | null; cookieExpires: number | undefined; cleared: boolean }> {
  const res = await client.request("/auth/session")
  const cookie = setCookies(res).find((c) => c.name.includes("session-token"))
  const expires = cookie?.expires?.getTime()
  return {
    session: (await res.json()) as { expires: string } | null,
    cookieExpires: expires,
    cleared: cookie !== undefined && (cookie.value === "" || (expires !== undefined && expires <= Date.now())),
  }
}

/** Whether the request may act (the principal resolver), for a privileged path. */
const mayAct = (client: Client, config: AuthConfig) =>
  requireRecentAuthentication(appRequest(client), config, { maxAge: 365 * DAY }).then(
    () => true,
    (err: unknown) => {
      expect(err).toBeInstanceOf(SessionRequired)
      return false
    },
  )

async function signedIn(config: AuthConfig): Promise<Client> {
  const client = new Client(config)
  expect((await client.signIn()).status).toBe(302)
  return client
}

const capAt = (start = T0) => start + CAP * 1000

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

for (const strategy of ["database", "jwt"] as const) {
  describe(`session.absoluteMaxAge, ${strategy} sessions`, () => {
    it("sliding renewal never passes sign-in + absoluteMaxAge; past it the session reads as none, its cookie cleared, and cannot act", async () => {
      const { config } = setup(strategy)
      const client = await signedIn(config)
      const first = await read(client)
      expect(Date.parse(first.session!.expires)).toBeLessThanOrEqual(capAt())
      for (const hours of [6, 6, 6, 5]) {
        advanceSeconds(hours * HOUR)
        const { session, cookieExpires } = await read(client)
        expect(session).not.toBeNull()
        expect(Date.parse(session!.expires)).toBeLessThanOrEqual(capAt())
        if (cookieExpires !== undefined) expect(cookieExpires).toBeLessThanOrEqual(capAt())
      }
      // 23 hours in: the session says it ends at the cap, not a week on.
      expect(Date.parse((await read(client)).session!.expires)).toBe(capAt())
      expect(await mayAct(client, config)).toBe(true)
      advanceSeconds(HOUR)
      expect((await read(client)).session).toBeNull()
      expect(await mayAct(client, config)).toBe(false)
    })

    it("the cookie kept from before the cap (replayed as is) is refused past it, on reads and privileged paths", async () => {
      const { config } = setup(strategy)
      const client = await signedIn(config)
      const name = sessionCookie(client)!
      const stolen = client.jar.get(name)!
      advanceSeconds(CAP + 1)
      const thief = new Client(config)
      thief.jar.set(name, stolen)
      const refused = await read(thief)
      expect(refused.session).toBeNull()
      expect(refused.cleared).toBe(true)
      const again = new Client(config)
      again.jar.set(name, stolen)
      expect(await mayAct(again, config)).toBe(false)
    })

    it("a session update (POST /session) cannot extend it, whatever the session callbacks do", async () => {
      const { config } = setup(strategy, {}, memoryAdapter())
      const withCallbacks: AuthConfig = {
        ...config,
        callbacks: {
          // A callback that copies client data into the token: it must not move the sign-in time.
          jwt: ({ token, session }) => (session && typeof session === "object" ? { ...token, ...(session as JWT) } : token),
        },
      }
      const client = await signedIn(withCallbacks)
      advanceSeconds(CAP - HOUR)
      const csrfToken = await client.csrfToken()
      const forged = { sessionStart: Math.floor(Date.now() / 1000), iat: Math.floor(Date.now() / 1000), auth_time: Math.floor(Date.now() / 1000) }
      const res = await client.request("/auth/session", { json: { csrfToken, data: forged } })
      expect(res.status).toBe(200)
      const body = (await res.json()) as { expires: string }
      expect(Date.parse(body.expires)).toBeLessThanOrEqual(capAt())
      advanceSeconds(HOUR)
      expect(await client.session()).toBeNull()
    })

    it("signing in again starts a new lifetime", async () => {
      const { config } = setup(strategy)
      const client = await signedIn(config)
      advanceSeconds(CAP - 10)
      expect((await client.signIn()).status).toBe(302)
      advanceSeconds(HOUR)
      expect(Date.parse((await read(client)).session!.expires)).toBe(capAt(T0 + (CAP - 10) * 1000))
    })

    it("off by default: a session read now and then slides on for as long as maxAge allows", async () => {
      const { config } = setup(strategy, { absoluteMaxAge: undefined })
      const client = await signedIn(config)
      for (let day = 0; day < 20; day++) {
        advanceSeconds(3 * DAY)
        expect(await client.session()).not.toBeNull()
      }
      expect(await mayAct(client, config)).toBe(true)
    })

    it("turned on later: sessions signed in earlier count from their sign-in (signed in 2 days ago: none; 1 hour ago: ends at its cap)", async () => {
      const adapter = memoryAdapter()
      const off = setup(strategy, { absoluteMaxAge: undefined }, adapter).config
      const old = await signedIn(off)
      advanceSeconds(2 * DAY - HOUR)
      const recent = await signedIn(off)
      advanceSeconds(HOUR)
      const on = setup(strategy, {}, adapter).config
      const oldThen = new Client(on)
      const recentThen = new Client(on)
      for (const [from, to] of [[old, oldThen], [recent, recentThen]] as const) for (const [k, v] of from.jar.entries()) to.jar.set(k, v)
      expect(await oldThen.session()).toBeNull()
      expect(Date.parse((await read(recentThen)).session!.expires)).toBe(T0 + (2 * DAY - HOUR) * 1000 + CAP * 1000)
    })

    for (const value of [0, -1, 1.5, Number.NaN, Infinity, "86400", null]) {
      it(`an invalid absoluteMaxAge (${String(value)}) stops start-up with the option named`, async () => {
        const { logger, entries } = recordingLogger()
        const config = { ...setup(strategy).config, logger, session: { strategy, absoluteMaxAge: value as number } }
        const res = await Auth(new Request(`${ORIGIN}/auth/session`), config)
        expect(res.status).toBe(500)
        expect(entries.find((e) => e.level === "error")?.message[0]).toMatchObject({ code: "SESSION_OPTION_INVALID", message: expect.stringContaining("session.absoluteMaxAge") })
      })
    }
  })
}

describe("session.absoluteMaxAge, JWT tokens", () => {
  const salt = "authlib.session-token"
  const token = async (claims: JWT) => encode({ token: { name: "Alice", email: "alice@example.com", sub: "user-1", ...claims }, secret: SECRET, salt, maxAge: 7 * DAY })
  const withToken = (config: AuthConfig, value: string) => {
    const client = new Client(config)
    client.jar.set(salt, value)
    return client
  }

  it("the sign-in time is a claim the jwt callback cannot change, at sign-in or on a read", async () => {
    const { config } = setup("jwt")
    const forging: AuthConfig = { ...config, callbacks: { jwt: ({ token }) => ({ ...token, sessionStart: Math.floor(Date.now() / 1000) + 10 * DAY }) } }
    const client = await signedIn(forging)
    advanceSeconds(CAP + 1)
    expect(await client.session()).toBeNull()
  })

  it("a token from before the option with auth_time counts from it; without it, from its first read under the option", async () => {
    const { config } = setup("jwt")
    const stale = withToken(config, await token({ auth_time: T0 / 1000 - CAP - 1 }))
    expect(await stale.session()).toBeNull()
    const recent = withToken(config, await token({ auth_time: T0 / 1000 - HOUR }))
    expect(Date.parse((await read(recent)).session!.expires)).toBe(T0 + (CAP - HOUR) * 1000)
    const unknown = withToken(config, await token({}))
    expect(Date.parse((await read(unknown)).session!.expires)).toBe(capAt())
    advanceSeconds(CAP - 60)
    expect(await unknown.session()).not.toBeNull()
    advanceSeconds(61)
    expect(await unknown.session()).toBeNull()
  })

  it("a malformed sign-in claim (not a time, or far in the future) reads as no session and cannot act", async () => {
    const { config } = setup("jwt")
    for (const sessionStart of ["now", -5, 1.5, T0 / 1000 + 10 * DAY, [T0 / 1000]]) {
      const client = withToken(config, await token({ sessionStart } as JWT))
      expect(await client.session()).toBeNull()
      const acting = withToken(config, await token({ sessionStart } as JWT))
      expect(await mayAct(acting, config)).toBe(false)
    }
  })
})

describe("session.absoluteMaxAge, database sessions", () => {
  it("needs an adapter that stores when a session started (session metadata): start-up stops without one", async () => {
    const { listSessionsByUserId: _l, ...noMetadata } = memoryAdapter()
    const { logger, entries } = recordingLogger()
    const config = baseConfig({ adapter: noMetadata, logger, session: { strategy: "database", absoluteMaxAge: CAP } })
    expect((await Auth(new Request(`${ORIGIN}/auth/session`), config)).status).toBe(500)
    expect(entries.find((e) => e.level === "error")?.message[0]).toMatchObject({ code: "SESSION_OPTION_INVALID", message: expect.stringContaining("keeps no session metadata") })
  })

  it("a stored session without createdAt (moved from Auth.js, say) counts from its authTime, else from its first read under the option", async () => {
    const { adapter, config } = setup("database")
    const withAuthTime = await signedIn(config)
    const without = await signedIn(config)
    const [first, second] = [...adapter.sessions.values()]
    const { createdAt: _a, ...legacyWithAuthTime } = first!
    adapter.sessions.set(first!.sessionToken, { ...legacyWithAuthTime, authTime: T0 / 1000 - (CAP - HOUR), expires: new Date(T0 + 7 * DAY * 1000) })
    const { createdAt: _b, authTime: _t, ...legacy } = second!
    adapter.sessions.set(second!.sessionToken, { ...legacy, expires: new Date(T0 + 7 * DAY * 1000) })
    expect(Date.parse((await read(withAuthTime)).session!.expires)).toBe(T0 + HOUR * 1000)
    expect(Date.parse((await read(without)).session!.expires)).toBe(capAt())
    expect(adapter.sessions.get(second!.sessionToken)?.createdAt).toEqual(new Date(T0))
    advanceSeconds(HOUR)
    expect(await withAuthTime.session()).toBeNull()
    advanceSeconds(CAP - HOUR)
    expect(await without.session()).toBeNull()
  })
})
