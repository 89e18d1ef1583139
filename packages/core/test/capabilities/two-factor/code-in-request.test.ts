/**
 * The second factor sent with the password (`twoFactorCode`), both strategies: a right TOTP or
 * backup code signs in at once with both factors recorded and no pending sign-in; a wrong, reused,
 * throttled or malformed code answers exactly as a wrong password does and sets no cookie of a
 * session or a pending sign-in; `authorize` never receives the field; an empty field is the usual
 * two-step sign-in; a user without two factors is signed in as before.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig, CredentialsConfig } from "../../../src/index.js"
import { requireRecentAuthentication } from "../../../src/index.js"
import { Client, config as baseConfig, credentials, recordingLogger } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { appRequest, codeAt, sessionCookie } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

function setup(strategy: "jwt" | "database", over: Partial<AuthConfig> = {}) {
  const adapter = twoFactorAdapter()
  if (strategy === "jwt") adapter.users.set("user-1", { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: new Date(T0) })
  const log = recordingLogger()
  const seen: Record<string, unknown>[] = []
  const provider: CredentialsConfig = credentials()
  const authorize = provider.authorize
  const spying: CredentialsConfig = { ...provider, authorize: (c, r) => (seen.push({ ...c }), authorize(c, r)) }
  const config = baseConfig({ adapter, session: { strategy }, twoFactor: { issuer: "Example" }, providers: [spying], logger: log.logger, ...over })
  return { adapter, config, seen, log }
}


/** Signs in, enrols and confirms TOTP, signs out: the base32 secret and the backup codes. */
async function enrol(config: AuthConfig): Promise<{ secret: string; backupCodes: string[] }> {
  const client = new Client(config)
  expect((await client.signIn()).status).toBe(302)
  const { secret } = (await (await client.post("/auth/two-factor", { action: "totp-enroll" })).json()) as { secret: string }
  const confirmed = await client.post("/auth/two-factor", { action: "totp-confirm", code: codeAt(secret, 0) })
  const { backupCodes } = (await confirmed.json()) as { backupCodes: string[] }
  await client.post("/auth/signout")
  vi.setSystemTime(Date.now() + 30_000)
  return { secret, backupCodes }
}

/** The amr the session of `client` records (through the public freshness check). */
async function amrOf(client: Client, config: AuthConfig): Promise<readonly string[]> {
  return (await requireRecentAuthentication(appRequest(client), config)).amr
}

/** What the client keeps of an answer that must look like a wrong password's. */
const shape = async (res: Response) => ({ status: res.status, location: res.headers.get("location"), cookies: res.headers.getSetCookie().map((c) => c.split("=")[0]) })

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

describe.each(["database", "jwt"] as const)("a second factor sent with the password, %s sessions", (strategy) => {
  it("a right TOTP code signs in at once, with both factors, the signIn event once, and no pending sign-in", async () => {
    const signIns: unknown[] = []
    const { config, seen } = setup(strategy, { events: { signIn: (m) => void signIns.push(m) } })
    const { secret } = await enrol(config)
    signIns.length = 0
    const client = new Client(config)
    const res = await client.signIn("alice", "wonderland", { twoFactorCode: codeAt(secret, 0) })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/")
    expect(sessionCookie(client)).toBeDefined()
    expect(client.jar.get("authlib.two-factor")).toBeUndefined()
    expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
    expect(await amrOf(client, config)).toEqual(expect.arrayContaining(["pwd", "otp", "mfa"]))
    expect(signIns).toHaveLength(1)
    // The code is the library's: the app's authorize saw the username and password only.
    expect(seen.at(-1)).toEqual({ username: "alice", password: "wonderland" })
  })

  it("a backup code signs in once; the same code again is refused", async () => {
    const { config } = setup(strategy)
    const { backupCodes } = await enrol(config)
    const first = new Client(config)
    expect((await first.signIn("alice", "wonderland", { twoFactorCode: backupCodes[3]! })).status).toBe(302)
    expect(sessionCookie(first)).toBeDefined()
    const again = new Client(config)
    const res = await again.signIn("alice", "wonderland", { twoFactorCode: backupCodes[3]! })
    expect(res.headers.get("location")).toContain("error=CredentialsSignin")
    expect(sessionCookie(again)).toBeUndefined()
  })

  it("a wrong, reused or malformed code answers as a wrong password does, sets no session or pending cookie, and is logged", async () => {
    const { config, log, adapter } = setup(strategy)
    const { secret } = await enrol(config)
    const wrongPassword = await shape(await new Client(config).signIn("alice", "not-it", { twoFactorCode: codeAt(secret, 0) }))
    expect(wrongPassword.location).toContain("error=CredentialsSignin")
    const sessionsBefore = adapter.sessions.size
    const wrong = codeAt(secret, 0) === "000000" ? "111111" : "000000"
    const used = new Client(config)
    expect((await used.signIn("alice", "wonderland", { twoFactorCode: codeAt(secret, 0) })).status).toBe(302)
    const cases: [string, (c: Client) => Promise<Response>][] = [
      ["wrong", (c) => c.signIn("alice", "wonderland", { twoFactorCode: wrong })],
      ["reused", (c) => c.signIn("alice", "wonderland", { twoFactorCode: codeAt(secret, 0) })],
      ["not a code", (c) => c.signIn("alice", "wonderland", { twoFactorCode: "x".repeat(65) })],
      ["an array", async (c) => c.request("/auth/callback/credentials", { method: "POST", json: { csrfToken: await c.csrfToken(), username: "alice", password: "wonderland", twoFactorCode: [wrong] } })],
    ]
    for (const [what, send] of cases) {
      const client = new Client(config)
      const answer = await shape(await send(client))
      expect({ what, ...answer }).toEqual({ what, ...wrongPassword })
      expect(sessionCookie(client)).toBeUndefined()
      expect(client.jar.get("authlib.two-factor")).toBeUndefined()
    }
    expect(adapter.sessions.size).toBe(sessionsBefore + (strategy === "database" ? 1 : 0))
    expect(log.entries.some((e) => e.message.some((m) => String(m instanceof Error ? m.message : m).includes("second factor sent with the sign-in was refused")))).toBe(true)
  })

  it("counts wrong codes per user: once throttled, even the right code is refused, as a wrong password", async () => {
    const { config } = setup(strategy)
    const { secret } = await enrol(config)
    const wrong = codeAt(secret, 0) === "000000" ? "111111" : "000000"
    for (let i = 0; i < 5; i++) await new Client(config).signIn("alice", "wonderland", { twoFactorCode: wrong })
    const client = new Client(config)
    const res = await client.signIn("alice", "wonderland", { twoFactorCode: codeAt(secret, 0) })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toContain("error=CredentialsSignin")
    expect(sessionCookie(client)).toBeUndefined()
  })

  it("an empty field is the usual two-step sign-in", async () => {
    const { config } = setup(strategy)
    await enrol(config)
    const client = new Client(config)
    const res = await client.signIn("alice", "wonderland", { twoFactorCode: "" })
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/two-factor")
    expect(sessionCookie(client)).toBeUndefined()
    expect(client.jar.get("authlib.two-factor")).toBeDefined()
  })

  it("a user without two factors is signed in as before, with the password as the only factor", async () => {
    const { config, seen } = setup(strategy)
    const client = new Client(config)
    expect((await client.signIn("alice", "wonderland", { twoFactorCode: "123456" })).status).toBe(302)
    expect(sessionCookie(client)).toBeDefined()
    expect(await amrOf(client, config)).toEqual(["pwd"])
    expect(seen.at(-1)).toEqual({ username: "alice", password: "wonderland" })
  })
})
