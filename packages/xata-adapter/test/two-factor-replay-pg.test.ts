/**
 * A TOTP code is accepted at most once across app instances: two Node processes, each running
 * `Auth()` with the Xata adapter on the same PostgreSQL, each holding a pending sign-in of the same
 * user (two factors enabled), submit the same code at the same moment. The last used time step is
 * recorded by one conditional UPDATE, so exactly one gets a session; the other gets `CODE_INVALID`.
 */
import { afterAll, expect, inject, test } from "vitest"
import { stepAt, totp } from "@authlib/e2e-kit/totp"
import { XataAdapter, migrate } from "../src/index.js"
import { pgSchema } from "@authlib/e2e-kit/pg-schema"
import { startScript, type ChildScript } from "./helpers/child-script.js"
import { appBrowser, twoFactorAppConfig } from "./helpers/two-factor-app.js"

const url = inject("databaseUrl")

interface Report {
  statuses: number[]
  sessions: number
}

/** Pending sign-ins per process: several, so the two processes' requests overlap in the database. */
const PER_PROCESS = 5

function startChild(databaseUrl: string, email: string): ChildScript<Report> {
  return startScript<Report>("two-factor-child.ts", [databaseUrl, email, String(PER_PROCESS)])
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
    await adapter.createUser({ id, email, emailVerified: null, name: "Replay" })
    // Enrol through the app: password sign-in, then TOTP enrolled and confirmed with the previous
    // step's code (accepted by the ±1 window), so the current step's code is still unused.
    const config = twoFactorAppConfig(adapter)
    const app = appBrowser(config)
    expect((await app.post("/auth/callback/password", { email, password: "correct" })).status).toBe(302)
    const { secret } = (await (await app.post("/auth/two-factor", { action: "totp-enroll" })).json()) as { secret: string }
    const confirmed = await app.post("/auth/two-factor", { action: "totp-confirm", code: totp(secret, stepAt(Date.now() - 30_000)) })
    expect(confirmed.status).toBe(200)
    const sessionsBefore = (await schema.query(`SELECT count(*)::int AS n FROM authlib_sessions WHERE "user" = $1`, [id]))[0]!.n as number

    const children = [startChild(schema.url, email), startChild(schema.url, email)]
    await Promise.all(children.map((c) => c.ready))
    const code = totp(secret)
    const at = Date.now() + 300
    for (const child of children) child.go(`go ${code} ${at}`)
    const results = await Promise.all(children.map((c) => c.result))

    const statuses = results.flatMap((r) => r.statuses)
    expect(statuses.filter((s) => s === 302)).toHaveLength(1)
    expect(statuses.filter((s) => s === 401)).toHaveLength(2 * PER_PROCESS - 1)
    expect(results.reduce((n, r) => n + r.sessions, 0)).toBe(1)
    const sessionsAfter = (await schema.query(`SELECT count(*)::int AS n FROM authlib_sessions WHERE "user" = $1`, [id]))[0]!.n as number
    expect(sessionsAfter - sessionsBefore).toBe(1)
  })
}
