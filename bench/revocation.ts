/**
 * What JWT revocation costs (issue 15): `GET /auth/session` with JWT sessions and the Xata adapter on
 * an in-process PGlite, `session.checkRevocation` "on-reissue" (the default: no adapter read while
 * the token is not due) against "every-request" (one `getUserSessionEpoch`, a primary-key lookup,
 * per read), same token, same run; and that lookup alone. Without an adapter JWT sessions cannot be
 * revoked; the "on-reissue" row is also what a JWT session costs with no adapter at all (the read
 * path touches no adapter), the check being the difference. PGlite is in-process: a networked
 * PostgreSQL adds its round trip to the "every-request" row.
 */
import { PGlite } from "@electric-sql/pglite"
import { Auth, type AuthConfig } from "@authlib/core"
import { encode } from "@authlib/jwt"
import { XataAdapter, migrate } from "@authlib/xata-adapter"
import type { BenchModule } from "./lib-bench.js"
import { fmt, measure, printFigures } from "./lib-measure.js"

const secret = "bench-secret-bench-secret-bench-secret-0123"
const origin = "http://localhost:3000"
const quiet = { error() {}, warn() {}, debug() {} }

const revocation: BenchModule = {
  name: "revocation",
  async run(options) {
    const started = performance.now()
    const db = new PGlite()
    await migrate(db)
    const adapter = XataAdapter(db)
    const user = await adapter.createUser({ id: "u-bench", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null })
    console.log(`PGlite ready and migrated in ${fmt((performance.now() - started) / 1000)} s (not measured)`)
    const config = (checkRevocation: "on-reissue" | "every-request"): AuthConfig => ({
      providers: [], secret, trustHost: true, basePath: "/auth", logger: quiet, adapter,
      session: { strategy: "jwt", checkRevocation },
    })
    const token = await encode({ token: { sub: user.id, name: user.name, email: user.email, sessionEpoch: 0 }, secret, salt: "authlib.session-token" })
    const read = (cfg: AuthConfig) => async () => {
      const res = await Auth(new Request(`${origin}/auth/session`, { headers: { cookie: `authlib.session-token=${token}` } }), cfg)
      const body = (await res.json()) as { user?: { name?: string } } | null
      if (body?.user?.name !== user.name) throw new Error(`bench: session read answered ${JSON.stringify(body)}`)
    }
    const lazy = config("on-reissue")
    const strict = config("every-request")
    const tasks = {
      "GET /session, checkRevocation on-reissue": read(lazy),
      "GET /session, checkRevocation every-request": read(strict),
      "getUserSessionEpoch alone (PGlite)": async () => {
        if ((await adapter.getUserSessionEpoch(user.id)) !== 0) throw new Error("bench: epoch is not 0")
      },
    }
    const figures = await measure(tasks, options)
    printFigures("JWT sessions with the Xata adapter on PGlite (latency in microseconds)", figures)
    const a = figures.get("GET /session, checkRevocation every-request")!
    const b = figures.get("GET /session, checkRevocation on-reissue")!
    console.log(`\nevery-request / on-reissue: ${fmt(a.mean / b.mean, 2)} (p50 ${fmt(a.p50 / b.p50, 2)}); added per read: ${fmt(a.p50 - b.p50, 1)} us at p50`)
    await db.close()
  },
}

export default revocation
