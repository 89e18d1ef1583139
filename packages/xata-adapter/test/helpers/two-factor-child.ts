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
import { Auth } from "@authlib/core"
import { XataAdapter } from "../../src/index.js"
import { ORIGIN, twoFactorAppConfig } from "./two-factor-app.js"

const [url, email, count = "1"] = process.argv.slice(2)
if (!url || !email) throw new Error("usage: two-factor-child.ts <database-url> <email> [pending sign-ins]")

const pool = new pg.Pool({ connectionString: url, max: 4 })
const config = twoFactorAppConfig(XataAdapter(pool))

/** One browser: its own cookies, so each holds its own pending sign-in. */
function browser() {
  const cookies = new Map<string, string>()
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  /** GET, or POST of a form (or of JSON, as a script posts: a refused code then answers 401, not a redirect to the page). */
  async function send(path: string, form?: Record<string, string>, json = false): Promise<Response> {
    const headers: Record<string, string> = { cookie: cookieHeader() }
    if (form) Object.assign(headers, { origin: ORIGIN, "content-type": json ? "application/json" : "application/x-www-form-urlencoded" })
    const body = form && (json ? JSON.stringify(form) : new URLSearchParams(form))
    const res = await Auth(new Request(`${ORIGIN}${path}`, body ? { method: "POST", headers, body } : { headers }), config)
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair!.indexOf("=")
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1))
    }
    return res
  }
  const csrf = async () => ((await (await send("/auth/csrf")).json()) as { csrfToken: string }).csrfToken
  const hasSession = () => [...cookies.entries()].some(([name, value]) => name.endsWith("authlib.session-token") && value !== "")
  return { send, csrf, hasSession }
}

const browsers = await Promise.all(
  Array.from({ length: Number(count) }, async () => {
    const b = browser()
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
