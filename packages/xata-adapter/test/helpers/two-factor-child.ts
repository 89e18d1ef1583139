/**
 * One instance of an app for the two-process replay test: `Auth()` with the Xata adapter on the
 * shared PostgreSQL (database sessions, two-factor sign-in on, no rate limit so only the code's
 * single use decides). Signs in with the password in `count` browsers (pending sign-ins, no session),
 * prints `ready`, waits for `go <code> <at>` on stdin, submits the code for every pending sign-in at
 * the wall-clock instant `at` (ms), and prints the statuses and how many sessions it got, as JSON.
 *
 *   node --import tsx test/helpers/two-factor-child.ts <database-url> <email> <count>
 */
import { createInterface } from "node:readline"
import pg from "pg"
import { XataAdapter } from "../../src/index.js"
import { appBrowser, ORIGIN, twoFactorAppConfig } from "./two-factor-app.js"

const [url, email, count = "1"] = process.argv.slice(2)
if (!url || !email) throw new Error("usage: two-factor-child.ts <database-url> <email> [pending sign-ins]")

const pool = new pg.Pool({ connectionString: url, max: 4 })
const config = twoFactorAppConfig(XataAdapter(pool))

const browsers = await Promise.all(
  Array.from({ length: Number(count) }, async () => {
    const b = appBrowser(config)
    const signedIn = await b.send("/auth/callback/password", { csrfToken: await b.csrf(), email, password: "correct" })
    if (signedIn.headers.get("location") !== `${ORIGIN}/auth/two-factor`) throw new Error(`expected a pending sign-in, got ${signedIn.status} ${signedIn.headers.get("location")}`)
    return { b, csrfToken: await b.csrf() }
  }),
)

const lines = createInterface({ input: process.stdin })
console.log("ready")
let command = ""
for await (const line of lines) {
  if (!line.startsWith("go ")) continue
  command = line
  break
}
// `go <code> <at>`: every sign-in of both processes submits the code at the same wall-clock instant.
const [, code = "", at = "0"] = command.split(" ")
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(at) - Date.now())))
const statuses = await Promise.all(browsers.map(async ({ b, csrfToken }) => (await b.send("/auth/two-factor", { csrfToken, action: "verify", code }, true)).status))
console.log(JSON.stringify({ statuses, sessions: browsers.filter(({ b }) => b.hasSession()).length }))
await pool.end()
