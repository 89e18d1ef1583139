/**
 * GET /auth/session on a database session due for its sliding extension, read by many requests at
 * once: with the adapter's `extendSession` the extension is written once and re-sent once; without
 * it core falls back to `updateSession` on every read.
 */
import { describe, expect, it } from "vitest"
import { Auth } from "../../../src/index.js"
import type { AdapterSession, AuthConfig } from "../../../src/index.js"
import { Client, config, ORIGIN, setCookies } from "../../helpers/harness.js"
import { memoryAdapter, type MemoryAdapter } from "../../helpers/memory-adapter.js"

const SESSION = "authlib.session-token"
const DAY = 86_400_000
const MAX_AGE = 30 * DAY
const READS = 50

/**
 * The memory adapter plus `extendSession` (check and write in one synchronous step, so atomic);
 * `applied()` counts the extensions it wrote.
 */
function withExtendSession(adapter: MemoryAdapter): MemoryAdapter & { applied(): number } {
  let applied = 0
  adapter.extendSession = async (session: { sessionToken: string; expires: Date }, dueBefore: Date) => {
    adapter.calls.push({ method: "extendSession", args: [session, dueBefore] })
    const stored = adapter.sessions.get(session.sessionToken)
    if (!stored || stored.expires.getTime() >= dueBefore.getTime()) return null
    const extended: AdapterSession = { ...stored, expires: session.expires }
    adapter.sessions.set(session.sessionToken, extended)
    applied++
    return { ...extended }
  }
  return Object.assign(adapter, { applied: () => applied })
}

/** Signs in, then moves the stored expiry two days back: `updateAge` (one day) has passed. */
async function dueSession(adapter: MemoryAdapter): Promise<{ cfg: AuthConfig; cookie: string; oldExpires: number }> {
  const cfg = config({ adapter })
  const client = new Client(cfg)
  await client.signIn()
  const [hash] = [...adapter.sessions.keys()]
  const stored = adapter.sessions.get(hash!)!
  const oldExpires = Date.now() + MAX_AGE - 2 * DAY
  adapter.sessions.set(hash!, { ...stored, expires: new Date(oldExpires) })
  adapter.calls.length = 0
  return { cfg, cookie: `${SESSION}=${client.jar.get(SESSION)}`, oldExpires }
}

/** `count` parallel GET /auth/session with `cookie`: each answer's `expires` and session Set-Cookie. */
async function readTogether(cfg: AuthConfig, cookie: string, count: number) {
  const responses = await Promise.all(
    Array.from({ length: count }, () => Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }), cfg)),
  )
  return Promise.all(
    responses.map(async (res) => ({
      expires: Date.parse(((await res.json()) as { expires: string }).expires),
      cookies: setCookies(res).filter((c) => c.name === SESSION),
    })),
  )
}

const count = (adapter: MemoryAdapter, method: string) => adapter.calls.filter((c) => c.method === method).length

describe("GET /auth/session, many reads of one due database session", () => {
  it("with extendSession: one write, at most one Set-Cookie, every answer the old or the one new expiry", async () => {
    const adapter = withExtendSession(memoryAdapter())
    const { cfg, cookie, oldExpires } = await dueSession(adapter)
    const answers = await readTogether(cfg, cookie, READS)
    const [hash] = [...adapter.sessions.keys()]
    const newExpires = adapter.sessions.get(hash!)!.expires.getTime()
    expect(newExpires).toBeGreaterThan(oldExpires)
    expect(adapter.applied()).toBe(1)
    expect(count(adapter, "extendSession")).toBeGreaterThanOrEqual(1)
    expect(count(adapter, "updateSession")).toBe(0)
    const sent = answers.flatMap((a) => a.cookies)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.expires?.getTime()).toBe(Math.floor(newExpires / 1000) * 1000)
    // The winner answers the new expiry; the others what they read (old, or new if read after the write).
    for (const a of answers) expect([oldExpires, newExpires]).toContain(a.expires)
    expect(answers.find((a) => a.cookies.length === 1)?.expires).toBe(newExpires)
  })

  it("with extendSession: the call carries the new expiry and the due threshold (now + maxAge - updateAge)", async () => {
    const adapter = withExtendSession(memoryAdapter())
    const { cfg, cookie } = await dueSession(adapter)
    const before = Date.now()
    await readTogether(cfg, cookie, 1)
    const after = Date.now()
    const [session, dueBefore] = adapter.calls.find((c) => c.method === "extendSession")!.args as [{ sessionToken: string; expires: Date }, Date]
    expect(session.sessionToken).toBe([...adapter.sessions.keys()][0])
    expect(session.expires.getTime() - dueBefore.getTime()).toBe(DAY)
    expect(dueBefore.getTime()).toBeGreaterThanOrEqual(before + MAX_AGE - DAY)
    expect(dueBefore.getTime()).toBeLessThanOrEqual(after + MAX_AGE - DAY)
  })

  it("with extendSession answering null (extended elsewhere): no cookie, the expiry that was read", async () => {
    const adapter = memoryAdapter()
    adapter.extendSession = async () => null
    const { cfg, cookie, oldExpires } = await dueSession(adapter)
    const [answer] = await readTogether(cfg, cookie, 1)
    expect(answer).toEqual({ expires: oldExpires, cookies: [] })
  })

  it("without extendSession: falls back to updateSession, re-sending the cookie on every due read", async () => {
    const adapter = memoryAdapter()
    const { cfg, cookie, oldExpires } = await dueSession(adapter)
    const answers = await readTogether(cfg, cookie, READS)
    expect(count(adapter, "updateSession")).toBeGreaterThan(1)
    expect(answers.every((a) => a.cookies.length === 1 && a.expires > oldExpires)).toBe(true)
  })

  it("a session not yet due is neither extended nor updated", async () => {
    const adapter = withExtendSession(memoryAdapter())
    const client = new Client(config({ adapter }))
    await client.signIn()
    adapter.calls.length = 0
    const res = await client.request("/auth/session")
    expect(setCookies(res)).toEqual([])
    expect(adapter.calls.map((c) => c.method)).toEqual(["getSessionAndUser"])
  })
})
