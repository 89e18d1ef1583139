/**
 * Organizations (issue 35): `hasPermission` on a warm request, with database sessions on
 * `@authlib/xata-adapter` over node-postgres, on the throwaway PostgreSQL server of the db bench
 * (`db-server.ts`), against its floor: the same `GET /session` database read and one prepared
 * `SELECT` on the membership index (`authlib_organization_members (organization, "user")`), the
 * least a permission check from the store can cost. Both run on one counted connection each, both
 * configurations resolved and warm; the request carries the session cookie and the
 * active-organization cookie, as a browser that chose one sends it. Target: within 1.2x (paired p50).
 *
 * Beside it, for what they show: a store-only floor (the adapter's `getSessionAndUser` and the same
 * prepared `SELECT`, no request handled: what any check from the store costs at the least),
 * `GET /session` with and without the active-organization cookie (the cookie adds the membership
 * and organization look-ups, and with database sessions a second session look-up: the principal is
 * asked after the read), and the statements of each row.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { Auth, createOrganization, hasPermission, setActiveOrganization, type AuthConfig } from "@authlib/core"
import { migrate, XataAdapter } from "@authlib/xata-adapter"
import pg from "pg"
import { ada, origin, quiet, secret } from "./db-fixture.js"
import { countedPool, startDbServer, type CountedPool } from "./db-server.js"
import type { BenchModule } from "./lib-bench.js"
import { fmt, measure, pairedRatio, printFigures } from "./lib-measure.js"

const COOKIE = "authlib.session-token"
const TARGET = 1.2
const MEMBERSHIP = `SELECT role FROM authlib_organization_members WHERE organization = $1::text AND "user" = $2::text`

function configFor(pool: CountedPool): AuthConfig {
  return {
    url: origin,
    secret,
    trustHost: true,
    logger: quiet,
    adapter: XataAdapter(pool.client),
    session: { strategy: "database" },
    providers: [],
    organizations: { sendInvitation: async () => {} },
  }
}

const request = (cookie: string, path = "/") => new Request(`${origin}${path}`, { headers: { cookie } })

const organizations: BenchModule = {
  name: "organizations",
  async run(options) {
    const server = await startDbServer()
    if (!server) {
      console.log("SKIPPED: needs PostgreSQL (DATABASE_URL or the server binaries: apt-get install postgresql)")
      return
    }
    const schema = `bench_orgs_${randomUUID().replace(/-/g, "").slice(0, 8)}`
    await server.admin.query(`CREATE SCHEMA ${schema}`)
    const setup = new pg.Pool({ connectionString: server.url, max: 1, options: `-c search_path=${schema}` })
    await migrate(setup)
    const pools = { ours: await countedPool(server.url, schema), floor: await countedPool(server.url, schema) }
    try {
      // Ada, a live database session, her organization (through core, as an app makes it) and the
      // active-organization cookie core sets for it.
      const seed = XataAdapter(setup)
      const user = await seed.createUser({ id: randomUUID(), ...ada, emailVerified: new Date() })
      const token = randomBytes(32).toString("base64url")
      const tokenHash = createHash("sha256").update(token).digest("base64url")
      await seed.createSession({ sessionToken: tokenHash, userId: user.id, expires: new Date(Date.now() + 30 * 86_400_000) })
      const ours = configFor(pools.ours)
      const floorConfig = configFor(pools.floor)
      const sessionCookie = `${COOKIE}=${token}`
      const floorStore = XataAdapter(pools.floor.client)
      const organization = await createOrganization(request(sessionCookie), ours, { name: "Bench Labs", slug: "bench-labs" })
      const { setCookie } = await setActiveOrganization(request(sessionCookie), ours, organization.id)
      const withActive = `${sessionCookie}; ${setCookie[0]!.split(";")[0]!}`

      const check = async (what: string, res: Response, active: "set" | "none") => {
        const body = (await res.json()) as { user?: { email?: string }; activeOrganization?: { id: string } | null } | null
        if (body?.user?.email !== ada.email || (active === "set" ? body.activeOrganization?.id !== organization.id : body.activeOrganization !== null))
          throw new Error(`bench: ${what} answered ${JSON.stringify(body)}`)
      }
      const tasks = {
        "hasPermission (session + active-organization cookies)": async () => {
          if ((await hasPermission(request(withActive), ours, organization.id, "member:invite")) !== true) throw new Error("bench: hasPermission answered false")
        },
        "floor: GET /session + prepared membership SELECT": async () => {
          await check("floor GET /session", await Auth(request(sessionCookie, "/auth/session"), floorConfig), "none")
          const { rows } = await pools.floor.client.query({ name: "bench_membership", text: MEMBERSHIP, values: [organization.id, user.id] })
          if (rows[0]?.role !== "owner") throw new Error("bench: floor membership SELECT found no owner")
        },
        "store floor: getSessionAndUser + prepared membership SELECT": async () => {
          if ((await floorStore.getSessionAndUser(tokenHash))?.user.email !== ada.email) throw new Error("bench: store floor found no session")
          const { rows } = await pools.floor.client.query({ name: "bench_membership", text: MEMBERSHIP, values: [organization.id, user.id] })
          if (rows[0]?.role !== "owner") throw new Error("bench: store floor membership SELECT found no owner")
        },
        "GET /session, active-organization cookie": async () => check("GET /session (active)", await Auth(request(withActive, "/auth/session"), ours), "set"),
        "GET /session, no active-organization cookie": async () => check("GET /session", await Auth(request(sessionCookie, "/auth/session"), ours), "none"),
      }
      const figures = await measure(tasks, { ...options, alternate: true })
      printFigures("Organizations on PostgreSQL, database sessions, in-process, one request at a time (latencies in microseconds)", figures)

      // Statements per call, counted in node after the timed rounds (warm).
      const count = Number(process.env.BENCH_COUNT ?? 200)
      const statements: string[] = []
      for (const [name, run] of Object.entries(tasks)) {
        pools.ours.count = 0
        pools.floor.count = 0
        for (let i = 0; i < count; i++) await run()
        statements.push(`${name} ${fmt((pools.ours.count + pools.floor.count) / count, 2)}`)
      }
      console.log(`statements per call: ${statements.join(", ")}`)

      const permission = figures.get("hasPermission (session + active-organization cookies)")!
      const ratio = pairedRatio(permission, figures.get("floor: GET /session + prepared membership SELECT")!)
      console.log(`target, hasPermission ÷ floor (paired p50): ${fmt(ratio, 2)} (<= ${TARGET}: ${ratio <= TARGET ? "met" : "NOT met"})`)
      console.log(`for reference, hasPermission ÷ store floor (paired p50): ${fmt(pairedRatio(permission, figures.get("store floor: getSessionAndUser + prepared membership SELECT")!), 2)}`)
    } finally {
      await pools.ours.end()
      await pools.floor.end()
      await setup.end()
      await server.stop()
    }
  },
}

export default organizations
