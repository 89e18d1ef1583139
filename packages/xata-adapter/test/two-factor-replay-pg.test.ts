/**
 * A TOTP code is accepted at most once across app instances: two Node processes, each running
 * `Auth()` with the Xata adapter on the same PostgreSQL, each holding a pending sign-in of the same
 * user (two factors enabled), submit the same code at the same moment. The last used time step is
 * recorded by one conditional UPDATE, so exactly one gets a session; the other gets `CODE_INVALID`.
 */
import { spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, expect, inject, test } from "vitest"
import { Auth } from "@authlib/core"
import { XataAdapter, migrate } from "../src/index.js"
import { pgSchema } from "./helpers/pg-schema.js"
import { ORIGIN, twoFactorAppConfig } from "./helpers/two-factor-app.js"

const url = inject("databaseUrl")
const packageDir = fileURLToPath(new URL("..", import.meta.url))

/** RFC 6238 with the defaults core uses (SHA-1, 6 digits, 30 s), computed here independently of core. */
function totpAt(base32: string, timeMs: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
  let bits = ""
  for (const c of base32.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0")
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 30_000)))
  const mac = createHmac("sha1", key).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0xf
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0")
}

interface Report {
  statuses: number[]
  sessions: number
}

interface Child {
  ready: Promise<void>
  go(code: string, at: number): void
  result: Promise<Report>
}

/** Pending sign-ins per process: several, so the two processes' requests overlap in the database. */
const PER_PROCESS = 5

function startChild(databaseUrl: string, email: string): Child {
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/two-factor-child.ts", databaseUrl, email, String(PER_PROCESS)], { cwd: packageDir, stdio: ["pipe", "pipe", "pipe"] })
  let out = ""
  let err = ""
  let markReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString()
    if (out.startsWith("ready\n")) markReady()
  })
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
  const result = new Promise<Report>((resolve, reject) => {
    const timer = setTimeout(() => child.kill(), 40_000)
    child.on("close", (code) => {
      clearTimeout(timer)
      const last = out.trim().split("\n").at(-1) ?? ""
      if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last) as Report)
      else reject(new Error(`child exited with ${code}: ${err || out}`))
    })
  })
  return { ready: Promise.race([ready, result.then(() => {})]), go: (code, at) => child.stdin.end(`go ${code} ${at}\n`), result }
}

/** A browser of the test itself: cookies by name, form and JSON posts. */
function browser(config: ReturnType<typeof twoFactorAppConfig>) {
  const jar = new Map<string, string>()
  async function send(path: string, form?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") }
    if (form) Object.assign(headers, { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" })
    const res = await Auth(new Request(`${ORIGIN}${path}`, form ? { method: "POST", headers, body: new URLSearchParams(form) } : { headers }), config)
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair!.indexOf("=")
      jar.set(pair!.slice(0, at), pair!.slice(at + 1))
    }
    return res
  }
  const post = async (path: string, form: Record<string, string>) => send(path, { csrfToken: ((await (await send("/auth/csrf")).json()) as { csrfToken: string }).csrfToken, ...form })
  return { send, post }
}

if (url === null) {
  test.skip("PostgreSQL server: no DATABASE_URL and no PostgreSQL binaries (see the warning above)", () => {})
} else {
  const schema = pgSchema(url, "two_factor_replay")
  afterAll(async () => schema.drop())

  test("the same TOTP code submitted at once to two processes, each with pending sign-ins of the user, gives exactly one session", { timeout: 60_000 }, async () => {
    await schema.create()
    await migrate(schema.pool)
    const adapter = XataAdapter(schema.pool)
    const id = crypto.randomUUID()
    const email = `${id}@example.com`
    await adapter.createUser!({ id, email, emailVerified: null, name: "Replay" })
    // Enrol through the app: password sign-in, then TOTP enrolled and confirmed with the previous
    // step's code (accepted by the ±1 window), so the current step's code is still unused.
    const config = twoFactorAppConfig(adapter)
    const app = browser(config)
    expect((await app.post("/auth/callback/password", { email, password: "correct" })).status).toBe(302)
    const { secret } = (await (await app.post("/auth/two-factor", { action: "totp-enroll" })).json()) as { secret: string }
    const confirmed = await app.post("/auth/two-factor", { action: "totp-confirm", code: totpAt(secret, Date.now() - 30_000) })
    expect(confirmed.status).toBe(200)
    const sessionsBefore = (await schema.query(`SELECT count(*)::int AS n FROM authlib_sessions WHERE "user" = $1`, [id]))[0]!.n as number

    const children = [startChild(schema.url, email), startChild(schema.url, email)]
    await Promise.all(children.map((c) => c.ready))
    const code = totpAt(secret, Date.now())
    const at = Date.now() + 300
    for (const child of children) child.go(code, at)
    const results = await Promise.all(children.map((c) => c.result))

    const statuses = results.flatMap((r) => r.statuses)
    expect(statuses.filter((s) => s === 302)).toHaveLength(1)
    expect(statuses.filter((s) => s === 401)).toHaveLength(2 * PER_PROCESS - 1)
    expect(results.reduce((n, r) => n + r.sessions, 0)).toBe(1)
    const sessionsAfter = (await schema.query(`SELECT count(*)::int AS n FROM authlib_sessions WHERE "user" = $1`, [id]))[0]!.n as number
    expect(sessionsAfter - sessionsBefore).toBe(1)
  })
}
