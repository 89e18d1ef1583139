/**
 * One instance of an app for the two-process test through core: `Auth()` with a
 * `PostgresRateLimitStore` on the shared database, a limit of 10 per identifier. Prints `ready`,
 * waits for `go`, sends its requests all at once (credentials sign-ins with a wrong password, or
 * e-mail sign-in requests, all for one identifier), and prints how many reached `authorize` or the
 * mailer and how many were answered 429, as JSON.
 *
 *   node --import tsx test/helpers/rate-limit-auth-child.ts <database-url> credentials|email <identifier> <requests>
 */
import { createInterface } from "node:readline"
import pg from "pg"
import { Auth, type AuthConfig } from "@authlib/core"
import { PostgresRateLimitStore, XataAdapter } from "../../src/index.js"

const [url, mode, identifier, requests] = process.argv.slice(2)
if (!url || (mode !== "credentials" && mode !== "email") || !identifier || !requests) throw new Error("usage: rate-limit-auth-child.ts <database-url> credentials|email <identifier> <requests>")

const ORIGIN = "http://app.test"
const pool = new pg.Pool({ connectionString: url, max: 10 })
const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()))
for (const client of clients) client.release()

let reached = 0
const rule = { limit: 10, window: 60 }
const config: AuthConfig = {
  secret: "two-instances-share-this-secret-0123456789",
  trustHost: true,
  adapter: XataAdapter(pool),
  session: { strategy: "jwt" },
  logger: { error: (...args) => console.error(...args), warn: () => {}, debug: () => {} },
  rateLimit: {
    store: PostgresRateLimitStore(pool, { logger: { error: (...args) => console.error(...args) } }),
    credentials: { perIdentifier: rule, perClient: false },
    email: { perAddress: rule, perClient: false, maxLiveTokens: false },
  },
  providers: [
    { id: "password", name: "Password", type: "credentials", credentials: { email: { label: "E-mail" } }, authorize: () => (reached++, null) },
    { id: "email", name: "E-mail", type: "email", sendVerificationRequest: () => void reached++ },
  ],
}

// One CSRF token for all requests of this instance (both instances share the secret).
const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
const { csrfToken } = (await csrf.json()) as { csrfToken: string }
const path = mode === "credentials" ? "/auth/callback/password" : "/auth/signin/email"
const body: Record<string, string> = mode === "credentials" ? { csrfToken, email: identifier, password: "wrong" } : { csrfToken, email: identifier }

const lines = createInterface({ input: process.stdin })
console.log("ready")
for await (const line of lines) if (line === "go") break
const statuses = await Promise.all(
  Array.from({ length: Number(requests) }, async () => {
    const res = await Auth(new Request(`${ORIGIN}${path}`, { method: "POST", headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) }), config)
    return res.status
  }),
)
console.log(JSON.stringify({ reached, refused: statuses.filter((s) => s === 429).length, other: statuses.filter((s) => s !== 429 && s !== 302) }))
lines.close()
await pool.end()
