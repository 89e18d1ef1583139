/**
 * One "instance" of an app for the two-process test: its own node-postgres pool and its own
 * `PostgresRateLimitStore` on the shared database. Prints `ready` once its connections are open,
 * waits for `go` on stdin (so that both processes hit at the same moment), sends its hits all at
 * once and prints the counts it was answered, as JSON.
 *
 *   node --import tsx test/helpers/rate-limit-child.ts <database-url> <key> <hits>
 */
import { createInterface } from "node:readline"
import pg from "pg"
import { PostgresRateLimitStore } from "../../src/index.js"

const [url, key, hits] = process.argv.slice(2)
if (!url || !key || !hits) throw new Error("usage: rate-limit-child.ts <database-url> <key> <hits>")

const pool = new pg.Pool({ connectionString: url, max: 10 })
// Open the connections before the start signal, so connecting does not serialise the hits.
const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()))
for (const client of clients) client.release()
const store = PostgresRateLimitStore(pool, { logger: { error: (...args) => console.error(...args) } })

const lines = createInterface({ input: process.stdin })
console.log("ready")
for await (const line of lines) if (line === "go") break
const answers = await Promise.all(Array.from({ length: Number(hits) }, () => store.hit(key, 60_000)))
console.log(JSON.stringify(answers.map((a) => a.count)))
lines.close()
await pool.end()
