/**
 * The floor of the database bench: a hand-written handler on the SAME Xata-style schema (the
 * `authlib_*` tables of `@authlib/xata-adapter`, its indexes, links and triggers) doing the same
 * work as authlib with the fewest statements: tokens hashed with SHA-256 as authlib stores them,
 * CSRF double-submit checked, the credentials and e-mail accounts mapped to their user, the session
 * and its `authlib_users_sessions` link written, single-use links and challenges consumed.
 *
 * The session row carries what authlib writes at sign-in: expiry, user, `createdAt`, the client's
 * description (from its User-Agent) and network, `authTime` and `amr`, and its link row.
 *
 * Statements: `GET /session` 1 (session joined to user), credentials 1 (account -> session + link),
 * e-mail 1 (link consumed -> account -> session + link), passkey 2 (the stored key is read before
 * the signature is checked; then challenge consumed, counter, session + link), sign-out 1.
 */
import { Buffer } from "node:buffer"
import { createHash, createHmac, createPublicKey, randomBytes, timingSafeEqual, verify, type KeyObject } from "node:crypto"
import pg from "pg"
import { SoftAuthenticator } from "../packages/core/test/capabilities/webauthn/authenticator.js"
import { ada, expectSignedIn, origin, password, post, queue, secret, type Implementation } from "./db-fixture.js"
import { expiresText, pooledRandomBytes } from "./lib-floor.js"

const sha256url = (value: string) => createHash("sha256").update(value).digest("base64url")
const sha256hex = (value: string) => createHash("sha256").update(value).digest("hex")
const MAX_AGE = 30 * 86_400_000
const COOKIE = "floor.session-token"

/**
 * The session and its link in one statement, for the user `userQuery` (a CTE named `u` yielding
 * `"user"`) finds. Parameters from `$first`: token hash, expires, network, description, authTime, amr.
 */
const insertSession = (userQuery: string, first: number) => `WITH ${userQuery},
  s AS (INSERT INTO authlib_sessions ("sessionToken", expires, "user", "createdAt", "clientNetwork", "clientDescription", "authTime", amr)
        SELECT $${first}::text, $${first + 1}::timestamptz, "user", now(), $${first + 2}::text, $${first + 3}::text, $${first + 4}::bigint, $${first + 5}::text[]
        FROM u RETURNING xata_id, "user"),
  l AS (INSERT INTO authlib_users_sessions ("user", session) SELECT "user", xata_id FROM s)
SELECT "user" FROM s`

const CREDENTIALS = insertSession(`u AS (SELECT "user" FROM authlib_accounts WHERE provider = 'credentials' AND "providerAccountId" = $1::text)`, 2)
const EMAIL = insertSession(`t AS (DELETE FROM "authlib_verificationTokens" WHERE identifier = $1::text AND token = $2::text RETURNING identifier, expires),
  u AS (SELECT a."user" FROM authlib_accounts a JOIN t ON a.provider = 'email' AND a."providerAccountId" = t.identifier WHERE t.expires > now())`, 3)
const PASSKEY = insertSession(`c AS (DELETE FROM "authlib_verificationTokens" WHERE identifier = 'floor:passkey' AND token = $1::text AND expires > now() RETURNING 1),
  u AS (UPDATE authlib_authenticators SET counter = $2::bigint, "lastUsedAt" = now() WHERE "credentialID" = $3::text AND EXISTS (SELECT 1 FROM c) RETURNING "user")`, 4)
const READ = `SELECT s.expires, u.xata_id, u.name, u.email, u.image FROM authlib_sessions s JOIN authlib_users u ON u.xata_id = s."user" WHERE s."sessionToken" = $1::text`
/** The session's link row goes by the schema's ON DELETE CASCADE, whose trigger runs on every delete anyway. */
const END = `DELETE FROM authlib_sessions WHERE "sessionToken" = $1::text`

function cookieOf(h: Headers, name: string): string | undefined {
  for (const part of (h.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=")
    if (k === name) return v.join("=")
  }
  return undefined
}
const csrfHash = (token: string) => sha256hex(`${token}${secret}`)
const mac = (value: string) => createHmac("sha256", secret).update(value).digest("base64url")
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** The form, when its CSRF token matches the double-submit cookie and the origin is ours. */
async function checkedForm(request: Request): Promise<URLSearchParams | null> {
  const form = new URLSearchParams(await request.text())
  const [token, digest] = (cookieOf(request.headers, "floor.csrf-token") ?? "").split("|")
  if (request.headers.get("origin") !== origin || !token || !digest || form.get("csrfToken") !== token || !same(digest, csrfHash(token))) return null
  return form
}

/** The client as authlib describes it: browser and system from the User-Agent (a fixed vocabulary). */
function describe(userAgent: string | null): string | null {
  if (!userAgent) return null
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Chrome\//.test(userAgent) ? "Chrome" : /Firefox\//.test(userAgent) ? "Firefox" : /Safari\//.test(userAgent) ? "Safari" : null
  const system = /Android/.test(userAgent) ? "Android" : /iPhone|iPad/.test(userAgent) ? "iOS" : /Mac OS X/.test(userAgent) ? "macOS" : /Windows/.test(userAgent) ? "Windows" : /Linux/.test(userAgent) ? "Linux" : null
  return browser && system ? `${browser} on ${system}` : browser ?? system
}
/** The session's metadata after the network: description, authTime (seconds), amr. */
const metadata = (request: Request, amr: string[]) => [describe(request.headers.get("user-agent")), Math.floor(Date.now() / 1000), amr]

const redirect = (cookie: string) => new Response(null, { status: 302, headers: { location: `${origin}/`, "set-cookie": cookie } })
const refused = () => new Response(null, { status: 302, headers: { location: `${origin}/auth/signin?error=Verification` } })
const sessionCookie = (token: string, expires: Date) => `${COOKIE}=${token}; Path=/; Expires=${expiresText(expires.getTime())}; HttpOnly; SameSite=Lax`

/**
 * `prepared`: the floor's statements go as named prepared statements (parsed and planned once per
 * connection), as authlib's do on a node-postgres pool; without it, as plain parameterised
 * statements (what `pg` sends by default, and what `@auth/pg-adapter` sends).
 */
export async function floorImplementation(pool: pg.Pool, setup: pg.Pool, userId: string, device: SoftAuthenticator, prepared = false): Promise<Implementation> {
  const names = new Map<string, string>()
  const nameOf = (text: string) => names.get(text) ?? (names.set(text, `floor_${names.size}`), names.get(text)!)
  // A named statement goes as a `Query` with its name set, as authlib's executor sends it: a
  // `{ name, text, values }` config object is copied by node-postgres through its property
  // descriptors (about 1.5 us a query), which a floor must not pay when authlib does not.
  const named = (text: string, values: unknown[]) =>
    new Promise<pg.QueryResult>((resolve, reject) => {
      const query = new pg.Query(text, values)
      ;(query as { name?: string }).name = nameOf(text)
      pool.query(query as never, ((err: Error | undefined, result: pg.QueryResult) => (err ? reject(err) : resolve(result))) as never)
    })
  const db = { query: (text: string, values: unknown[]) => (prepared ? named(text, values) : pool.query(text, values)) }
  const credential = device.credentials[0]!
  const credentialID = credential.id.toString("base64url")
  const keys = new Map<string, KeyObject>([[credentialID, createPublicKey(credential.publicKey.export({ format: "pem", type: "spki" }))]])
  const rpIdHash = createHash("sha256").update("localhost").digest()

  async function newSession(statement: string, params: unknown[], token: string, expires: Date): Promise<Response> {
    const { rows } = await db.query(statement, params)
    return rows.length === 1 ? redirect(sessionCookie(token, expires)) : refused()
  }

  async function handler(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url)
    if (pathname === "/auth/session") {
      const token = cookieOf(request.headers, COOKIE)
      const { rows } = token ? await db.query(READ, [sha256url(token)]) : { rows: [] }
      const row = rows[0] as { expires: Date; name: string; email: string; image: string | null } | undefined
      if (!row || row.expires.getTime() <= Date.now()) return Response.json(null)
      return Response.json({ user: { name: row.name, email: row.email, image: row.image }, expires: row.expires.toISOString() })
    }
    const form = await checkedForm(request)
    if (!form) return new Response(null, { status: 403 })
    const token = pooledRandomBytes(32).toString("base64url")
    const expires = new Date(Date.now() + MAX_AGE)
    if (pathname === "/auth/callback/credentials") {
      if (form.get("username") !== ada.email || form.get("password") !== password) return refused()
      return newSession(CREDENTIALS, [userId, sha256url(token), expires, "203.0.113.0/24", ...metadata(request, ["pwd"])], token, expires)
    }
    if (pathname === "/auth/callback/email") {
      const email = (form.get("email") ?? "").trim().toLowerCase()
      return newSession(EMAIL, [email, sha256hex(`${form.get("token")}${secret}`), sha256url(token), expires, "203.0.113.0/24", ...metadata(request, ["otp"])], token, expires)
    }
    if (pathname === "/auth/callback/passkey") {
      const [challenge, tag] = (cookieOf(request.headers, "floor.challenge") ?? "").split(".")
      if (!challenge || !tag || !same(tag, mac(challenge))) return refused()
      const data = JSON.parse(form.get("data") ?? "") as { id: string; response: { clientDataJSON: string; authenticatorData: string; signature: string } }
      // Stored as standard base64, as authlib (and Auth.js) store credential ids.
      const stored = Buffer.from(data.id, "base64url").toString("base64")
      const { rows } = await db.query(`SELECT "user", counter, "credentialPublicKey" FROM authlib_authenticators WHERE "credentialID" = $1::text`, [stored])
      const key = rows[0] ? keys.get(data.id) : undefined
      const clientDataJSON = Buffer.from(data.response.clientDataJSON, "base64url")
      const client = JSON.parse(clientDataJSON.toString()) as { type: string; challenge: string; origin: string }
      const authData = Buffer.from(data.response.authenticatorData, "base64url")
      if (!key || client.type !== "webauthn.get" || client.challenge !== challenge || client.origin !== origin) return refused()
      if (!authData.subarray(0, 32).equals(rpIdHash) || (authData[32]! & 0x05) !== 0x05) return refused()
      const signed = Buffer.concat([authData, createHash("sha256").update(clientDataJSON).digest()])
      if (!verify("sha256", signed, key, Buffer.from(data.response.signature, "base64url"))) return refused()
      const response = await newSession(PASSKEY, [sha256hex(challenge), authData.readUInt32BE(33), stored, sha256url(token), expires, "203.0.113.0/24", ...metadata(request, ["hwk", "user"])], token, expires)
      response.headers.append("set-cookie", "floor.challenge=; Path=/; Max-Age=0")
      return response
    }
    if (pathname === "/auth/signout") {
      const current = cookieOf(request.headers, COOKIE)
      if (current) await db.query(END, [sha256url(current)])
      return new Response(null, { status: 302, headers: { location: `${origin}/`, "set-cookie": `${COOKIE}=; Path=/; Max-Age=0` } })
    }
    return new Response(null, { status: 404 })
  }

  const csrf = randomBytes(32).toString("hex")
  const csrfCookie = `floor.csrf-token=${csrf}|${csrfHash(csrf)}`
  const liveToken = randomBytes(32).toString("base64url")
  const newRow = (token: string) => setup.query(insertSession(`u AS (SELECT $1::text AS "user")`, 2), [userId, sha256url(token), new Date(Date.now() + MAX_AGE), null, null, null, null])
  await newRow(liveToken)
  const links = queue<string>()
  const ending = queue<string>()
  const challenges = queue<{ cookie: string; data: string }>()
  const insertToken = (identifier: string, token: string) =>
    setup.query(`/* bench-setup */ INSERT INTO "authlib_verificationTokens" (identifier, token, expires) VALUES ($1, $2, $3)`, [identifier, token, new Date(Date.now() + 300_000)])
  return {
    name: prepared ? "floor, prepared statements" : "floor",
    ops: {
      "GET /session": {
        async run() {
          const body = (await (await handler(new Request(`${origin}/auth/session`, { headers: { cookie: `${COOKIE}=${liveToken}` } }))).json()) as { user?: { email?: string } } | null
          if (body?.user?.email !== ada.email) throw new Error(`bench: floor GET /session answered ${JSON.stringify(body)}`)
        },
      },
      "credentials sign-in": {
        run: async () => expectSignedIn("floor credentials", await handler(post("/auth/callback/credentials", csrfCookie, { csrfToken: csrf, username: ada.email, password })), COOKIE),
      },
      "e-mail link completion": {
        async prepare() {
          const token = randomBytes(32).toString("base64url")
          await insertToken(ada.email, sha256hex(`${token}${secret}`))
          links.push(token)
        },
        run: async () => expectSignedIn("floor e-mail", await handler(post("/auth/callback/email", csrfCookie, { csrfToken: csrf, token: links.take(), email: ada.email })), COOKIE),
      },
      "passkey sign-in": {
        async prepare() {
          const challenge = randomBytes(32).toString("base64url")
          await insertToken("floor:passkey", sha256hex(challenge))
          const data = JSON.stringify(device.authenticate({ challenge }, credential, { counter: 0 }))
          challenges.push({ cookie: `${csrfCookie}; floor.challenge=${challenge}.${mac(challenge)}`, data })
        },
        async run() {
          const call = challenges.take()
          expectSignedIn("floor passkey", await handler(post("/auth/callback/passkey", call.cookie, { csrfToken: csrf, action: "authenticate", data: call.data })), COOKIE)
        },
      },
      "sign-out": {
        async prepare() {
          const token = randomBytes(32).toString("base64url")
          await newRow(token)
          ending.push(token)
        },
        async run() {
          const res = await handler(post("/auth/signout", `${csrfCookie}; ${COOKIE}=${ending.take()}`, { csrfToken: csrf }))
          if (res.status !== 302) throw new Error(`bench: floor sign-out answered ${res.status}`)
        },
      },
    },
  }
}
