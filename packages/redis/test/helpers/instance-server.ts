/**
 * One instance of an app for the multi-instance test: a Node HTTP server through
 * `@authlib/core/node`, database sessions on the shared PostgreSQL (`XataAdapter`, node-postgres)
 * behind `withRedisCache` on the shared Redis, and `RedisRateLimitStore` (credentials: 10 attempts
 * per identifier). Prints `listening <port>`; `GET /stats` answers how many attempts reached
 * `authorize`. Stops on SIGTERM.
 *
 *   node --import tsx test/helpers/instance-server.ts <database-url> <redis-url>
 */
import { createServer } from "node:http"
import pg from "pg"
import { createClient } from "redis"
import type { AdapterUser, AuthConfig } from "@authlib/core"
import { toNodeHandler } from "@authlib/core/node"
import { XataAdapter } from "@authlib/xata-adapter"
import { RedisRateLimitStore, withRedisCache } from "../../src/index.js"

const [databaseUrl, redisUrl] = process.argv.slice(2)
if (!databaseUrl || !redisUrl) throw new Error("usage: instance-server.ts <database-url> <redis-url>")

const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 })
const redis = createClient({ url: redisUrl })
redis.on("error", (err: unknown) => console.error("redis", err))
await redis.connect()

let reached = 0
const adapter = withRedisCache(XataAdapter(pool), { client: redis })
const config: AuthConfig = {
  secret: "multi-instance-test-secret-0123456789-abcdefgh",
  trustHost: true,
  adapter,
  session: { strategy: "database" },
  logger: { error: (...args) => console.error(...args), warn: () => {}, debug: () => {} },
  rateLimit: { store: new RedisRateLimitStore({ client: redis }), credentials: { perIdentifier: { limit: 10, window: 60 }, perClient: false } },
  providers: [
    {
      id: "password",
      name: "Password",
      type: "credentials",
      credentials: { email: { label: "E-mail" }, password: { label: "Password", type: "password" } },
      async authorize(c) {
        reached++
        if (c.password !== "correct" || typeof c.email !== "string") return null
        return ((await adapter.getUserByEmail?.(c.email)) ?? null) as AdapterUser | null
      },
    },
  ],
}
const auth = toNodeHandler(config)
const server = createServer((req, res) => {
  if (req.url === "/stats") {
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify({ reached }))
    return
  }
  auth(req, res)
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`)
})
process.on("SIGTERM", () => {
  server.close()
  server.closeAllConnections()
  void Promise.allSettled([pool.end(), redis.quit()]).then(() => process.exit(0))
})
