/**
 * Two instances of an app (two Node processes, one PostgreSQL database through `XataAdapter`) ask
 * for a due provider access token at the same moment: the provider's token endpoint is called once,
 * and both get the new token (core's refresh lease on `updateAccount`'s compare-and-swap).
 *
 * The OpenID provider (oidc-provider, rotating refresh tokens) is the e2e kit's, the same real
 * provider core's OAuth tests use; the login walk is core's own test helper, imported from core's
 * test folder.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"
import { afterAll, beforeAll, expect, inject, test } from "vitest"
import { migrate, XataAdapter } from "../src/index.js"
import { pgSchema } from "@authlib/e2e-kit/pg-schema"

/**
 * Core's OAuth test helpers, loaded by URL at run time: a static import would pull core's sources
 * into this package's type-check (outside its rootDir). Their shapes, as used here:
 */
interface CoreOAuthHelpers {
  browserFor(config: unknown): { cookies(url: string): Map<string, string> }
  callbackOf(id: string): string
  sessionCookie(browser: unknown): string | undefined
  signInAtLocalOP(browser: unknown, providerId: string, login: string): Promise<unknown>
  testConfig(config: Record<string, unknown>): unknown
}
const helper = (path: string) => import(new URL(`../../core/test/capabilities/oauth/helpers/${path}`, import.meta.url).href)
const app = (await helper("app.ts")) as CoreOAuthHelpers
const { browserFor, callbackOf, sessionCookie, signInAtLocalOP, testConfig } = app

const url = inject("databaseUrl")
const packageDir = fileURLToPath(new URL("..", import.meta.url))

function child(args: string[]) {
  const proc = spawn(process.execPath, ["--import", "tsx", "test/helpers/access-token-child.ts", ...args], { cwd: packageDir, stdio: ["pipe", "pipe", "pipe"] })
  let out = ""
  let err = ""
  let markReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  proc.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString()
    if (out.startsWith("ready\n")) markReady()
  })
  proc.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
  const result = new Promise<{ accessToken: string }>((resolve, reject) => {
    const timer = setTimeout(() => proc.kill(), 40_000)
    proc.on("close", (code) => {
      clearTimeout(timer)
      const last = out.trim().split("\n").at(-1) ?? ""
      if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last) as { accessToken: string })
      else reject(new Error(`child exited with ${code}: ${err || out}`))
    })
  })
  return { ready: Promise.race([ready, result.then(() => {})]), go: () => proc.stdin.end("go\n"), result }
}

if (url === null) {
  test.skip("PostgreSQL server: no DATABASE_URL and no PostgreSQL binaries (see the warning above)", () => {})
} else {
  const schema = pgSchema(url, "access_token")
  let op: LocalOP
  beforeAll(async () => {
    // Tokens that stay fresh for an hour: the race starts from a token made due in the database, so
    // an instance that reads the account only after the other stored new tokens (a loaded machine)
    // finds them fresh, as a real one would, and calls the provider no more.
    op = await startLocalOP([callbackOf("op")], { refresh: { accessTokenTtl: 3600 } })
    await schema.create()
    await migrate(schema.pool)
  })
  afterAll(async () => {
    await op?.close()
    await schema.drop()
  })

  test("two processes racing a due token: one token request at the provider, the same new token for both", async () => {
    const provider = {
      id: "op", name: "Local OP", type: "oidc", issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret,
      [Symbol.for("authlib.allow-insecure-oauth-requests")]: true, authorization: { params: { scope: "openid email offline_access", prompt: "consent" } },
    }
    const adapter = XataAdapter(schema.pool)
    const browser = browserFor(testConfig({ providers: [provider as never], adapter, session: { strategy: "database" } }))
    await signInAtLocalOP(browser, "op", "alice")
    const cookie = `authlib.session-token=${sessionCookie(browser)}`
    await schema.pool.query(`UPDATE authlib_accounts SET expires_at = $1 WHERE provider = 'op' AND "providerAccountId" = 'alice'`, [Math.floor(Date.now() / 1000) - 10])
    const before = await adapter.getAccount("alice", "op")
    expect(before?.refresh_token).toBeTruthy()

    const args = [schema.url, op.issuer, clients.basic.client_id, clients.basic.client_secret, cookie]
    const children = [child(args), child(args)]
    await Promise.all(children.map((c) => c.ready))
    const tokenRequests = op.tokenRequests
    for (const c of children) c.go()
    const [a, b] = await Promise.all(children.map((c) => c.result))
    expect(op.tokenRequests - tokenRequests).toBe(1)
    expect(a!.accessToken).toBe(b!.accessToken)
    expect(a!.accessToken).not.toBe(before!.access_token)
    const after = await adapter.getAccount("alice", "op")
    expect(after).toMatchObject({ access_token: a!.accessToken })
    expect(after!.refresh_token).not.toBe(before!.refresh_token)
    expect(after!.refresh_token).not.toMatch(/^authlib-refresh-lease:/)
  }, 60_000)
}
