/**
 * One instance of an app for the two-process refresh test: `getAccessToken` from `@authlib/core`
 * with `XataAdapter` on its own node-postgres pool over the shared database. Prints `ready`, waits
 * for `go`, asks for the access token (due: the test expired it in the database) and prints it.
 *
 *   node --import tsx test/helpers/access-token-child.ts <database-url> <issuer> <client-id> <client-secret> <cookie>
 */
import { createInterface } from "node:readline"
import pg from "pg"
import { getAccessToken, type AuthConfig } from "@authlib/core"
import { XataAdapter } from "../../src/index.js"

const [url, issuer, clientId, clientSecret, cookie] = process.argv.slice(2)
if (!url || !issuer || !clientId || !clientSecret || !cookie) throw new Error("usage: access-token-child.ts <database-url> <issuer> <client-id> <client-secret> <cookie>")

const pool = new pg.Pool({ connectionString: url, max: 4 })
const config: AuthConfig = {
  secret: "test-secret-0123456789abcdefghijklmnopqrstuvwxyz",
  trustHost: true,
  adapter: XataAdapter(pool),
  session: { strategy: "database" },
  logger: { error: (...args) => console.error(...args), warn: () => {}, debug: () => {} },
  providers: [{ id: "op", name: "Local OP", type: "oidc", issuer, clientId, clientSecret, [Symbol.for("authlib.allow-insecure-oauth-requests")]: true } as never],
}

const lines = createInterface({ input: process.stdin })
console.log("ready")
for await (const line of lines) if (line === "go") break
const token = await getAccessToken(new Request("http://app.test/api", { headers: { cookie } }), config, "op", { minValidity: 60 })
console.log(JSON.stringify({ accessToken: token.accessToken }))
lines.close()
await pool.end()
