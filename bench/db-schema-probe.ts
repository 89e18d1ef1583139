/**
 * Where a database sign-out's server time goes (issue 27): the session delete in several forms,
 * and a session insert + delete with and without each index of `authlib_users_sessions`, on a
 * throwaway PostgreSQL with the adapter's schema and a populated table (PROBE_USERS users with
 * two sessions each). Each form runs PROBE_COUNT times as a named prepared statement on one
 * connection; the backend's CPU per call (`/proc/<pid>/schedstat`) is reported, best of
 * PROBE_ROUNDS alternating rounds, then one `EXPLAIN (ANALYZE, BUFFERS)` of each delete form.
 *
 *   node --import tsx bench/db-schema-probe.ts
 */
import { randomBytes, randomUUID } from "node:crypto"
import pg from "pg"
import { migrate } from "@authlib/xata-adapter"
import { countedPool, startDbServer } from "./db-server.js"

const USERS = Number(process.env.PROBE_USERS ?? 5000)
const COUNT = Number(process.env.PROBE_COUNT ?? 1500)
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 5)

const COLUMNS = `"sessionToken", expires, "user", "createdAt", "clientDescription", "clientNetwork", error, "authTime", array_to_json(amr)::text AS amr`
const RETURNED = `"sessionToken", expires, "user", "createdAt", "clientDescription", "clientNetwork", error, "authTime", amr`
const INSERT = `WITH s AS (INSERT INTO authlib_sessions ("sessionToken", expires, "user", "createdAt", "clientNetwork") VALUES ($1::text, $2::timestamptz, $3::text, now(), '203.0.113.0/24') RETURNING xata_id, "user"),
  l AS (INSERT INTO authlib_users_sessions ("user", session) SELECT "user", xata_id FROM s) SELECT 1`

/** The forms of a session delete compared. */
const DELETES: Record<string, string> = {
  "adapter deleteSession (whole record returned, link deleted in the CTE)": `WITH s AS (DELETE FROM authlib_sessions WHERE "sessionToken" = $1::text RETURNING xata_id, ${COLUMNS}),
    link AS (DELETE FROM authlib_users_sessions WHERE session IN (SELECT xata_id FROM s)) SELECT ${RETURNED} FROM s`,
  "count only (the floor's form)": `WITH s AS (DELETE FROM authlib_sessions WHERE "sessionToken" = $1::text RETURNING xata_id),
    link AS (DELETE FROM authlib_users_sessions WHERE session IN (SELECT xata_id FROM s)) SELECT count(*) FROM s`,
  "whole record, link left to ON DELETE CASCADE": `DELETE FROM authlib_sessions WHERE "sessionToken" = $1::text RETURNING ${COLUMNS}`,
  "nothing returned, link left to ON DELETE CASCADE": `DELETE FROM authlib_sessions WHERE "sessionToken" = $1::text`,
}

const token = () => randomBytes(32).toString("base64url")

async function main() {
  const server = await startDbServer()
  if (!server) throw new Error("needs PostgreSQL")
  const schema = `probe_${randomUUID().replace(/-/g, "").slice(0, 8)}`
  await server.admin.query(`CREATE SCHEMA ${schema}`)
  const setup = new pg.Pool({ connectionString: server.url, max: 1, options: `-c search_path=${schema}` })
  try {
    await migrate(setup)
    await setup.query(`INSERT INTO authlib_users (xata_id, email, "emailVerified") SELECT 'u' || i, 'u' || i || '@example.com', now() FROM generate_series(1, $1::int) i`, [USERS])
    await setup.query(
      `WITH s AS (INSERT INTO authlib_sessions ("sessionToken", expires, "user") SELECT md5(random()::text), now() + interval '30 days', 'u' || (1 + i % $1::int) FROM generate_series(1, $1::int * 2) i RETURNING xata_id, "user")
       INSERT INTO authlib_users_sessions ("user", session) SELECT "user", xata_id FROM s`,
      [USERS],
    )
    await setup.query("VACUUM ANALYZE")
    const probe = await countedPool(server.url, schema)
    const named = (name: string, text: string, values: unknown[]) => probe.pool.query({ name, text, values })
    const user = () => `u${1 + Math.floor(Math.random() * USERS)}`

    /** Backend CPU per call of `run` over COUNT calls, `prepare` (untimed) made first for each. */
    async function perCall(prepare: () => Promise<unknown>, run: (i: number) => Promise<unknown>): Promise<number> {
      for (let i = 0; i < COUNT; i++) await prepare()
      const before = probe.backendCpu()
      for (let i = 0; i < COUNT; i++) await run(i)
      return (probe.backendCpu() - before) / COUNT
    }

    const results = new Map<string, number[]>()
    const record = (label: string, us: number) => results.set(label, [...(results.get(label) ?? []), us])
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, text] of Object.entries(DELETES)) {
        const tokens: string[] = []
        const us = await perCall(
          async () => {
            const t = token()
            tokens.push(t)
            await named("probe_insert", INSERT, [t, new Date(Date.now() + 864e5).toISOString(), user()])
          },
          (i) => named(`probe_delete_${label.length}`, text, [tokens[i]]),
        )
        record(`delete: ${label}`, us)
      }
      // Insert + delete (as a sign-in then a sign-out) with the link table's indexes as the schema has them, then without its "user" index.
      for (const dropped of [null, "authlib_users_sessions_user_idx"]) {
        if (dropped) await setup.query(`DROP INDEX ${dropped}`)
        const tokens: string[] = []
        const ins = await perCall(async () => {}, async () => {
          const t = token()
          tokens.push(t)
          await named("probe_insert", INSERT, [t, new Date(Date.now() + 864e5).toISOString(), user()])
        })
        const del = await perCall(async () => {}, (i) => named("probe_delete_nothing", DELETES["nothing returned, link left to ON DELETE CASCADE"]!, [tokens[i]]))
        record(`insert session + link${dropped ? `, without ${dropped}` : ""}`, ins)
        record(`delete (cascade)${dropped ? `, without ${dropped}` : ""}`, del)
        if (dropped) await setup.query(`CREATE INDEX ${dropped} ON authlib_users_sessions ("user")`)
      }
    }
    console.log(`backend CPU per call, us (best of ${ROUNDS} rounds of ${COUNT}; ${USERS} users, ${USERS * 2} sessions; load ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")})`)
    for (const [label, values] of results) console.log(`  ${Math.min(...values).toFixed(0).padStart(5)}  (median ${values.sort((a, b) => a - b)[values.length >> 1]!.toFixed(0)})  ${label}`)

    for (const [label, text] of Object.entries(DELETES)) {
      const t = token()
      await setup.query(INSERT, [t, new Date(Date.now() + 864e5).toISOString(), user()])
      const { rows } = await setup.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) ${text.replace("$1::text", `'${t}'`)}`)
      console.log(`\nEXPLAIN ANALYZE: ${label}\n${rows.map((r) => `  ${r["QUERY PLAN"]}`).join("\n")}`)
    }
    await probe.end()
  } finally {
    await setup.end()
    await server.stop()
  }
}

await main()
