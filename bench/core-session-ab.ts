/**
 * `GET /session` under database sessions, for two builds of `@authlib/core` in one process (not
 * part of `pnpm bench`): the adapter answers `getSessionAndUser` from memory with the rows the Xata
 * adapter reads for the database bench (a session and a user with every column), so the figures are
 * core's own read path, the store left out; in rounds of CPU time per read (`lib-cpu-ab.ts`).
 *
 *   cp -r packages/core/dist /tmp/core-before/dist   # the build to compare with
 *   ln -s "$PWD/packages/core/node_modules" /tmp/core-before/node_modules
 *   cd bench && taskset -c 0 node --import tsx core-session-ab.ts /tmp/core-before/dist/index.js ../packages/core/dist/index.js 24 3000
 *
 * With a fifth argument `jwt`, the same for JWT sessions: both builds read one token sealed by
 * `@authlib/jwt` (no store at all).
 */
import { createHash } from "node:crypto"
import { encode } from "@authlib/jwt"
import { pathToFileURL } from "node:url"
import { resolve } from "node:path"
import { cpuRounds } from "./lib-cpu-ab.js"

type Auth = (request: Request, config: object, options: { clientAddress: string }) => Promise<Response>

const [a, b, rounds = "24", perBatch = "3000", strategy = "database"] = process.argv.slice(2)
if (!a || !b) throw new Error("usage: core-session-ab.ts <build A: dist/index.js> <build B: dist/index.js> [rounds] [reads per batch]")

const secret = "bench-secret-bench-secret-bench-secret-0123"
const origin = "http://localhost:3000"
const token = "u1Lq3d3Yl8o4mC0b1Kx2qS9fZ7vW5tR3pN6hJ0gE4aY"
const hashed = createHash("sha256").update(token).digest("base64url")
const quiet = { error() {}, warn() {}, debug() {} }
const user = {
  id: "8f6f3f5e-64c8-4b8e-9d35-9a7a0f7f5b1a", name: "Ada Lovelace", email: "ada.lovelace@example.com",
  emailVerified: new Date("2026-01-01T00:00:00Z"), image: null,
}

/** The two calls a database `GET /session` makes of a store, answered from memory with fresh objects. */
function memoryStore() {
  const expires = new Date(Date.now() + 30 * 86_400_000)
  const session = () => ({
    sessionToken: hashed, userId: user.id, expires: new Date(expires),
    createdAt: new Date(Date.now() - 1000), authTime: new Date(Date.now() - 1000), amr: ["pwd"],
    userAgent: "Mozilla/5.0", ipAddress: "203.0.113.7",
  })
  return {
    async getSessionAndUser(t: string) { return t === hashed ? { session: session(), user: { ...user } } : null },
    async getUser(id: string) { return id === user.id ? { ...user } : null },
    async getUserByEmail() { return null },
    async getUserByAccount() { return null },
    async createUser(u: object) { return u },
    async updateUser(u: object) { return u },
    async linkAccount() {},
    async createSession(s: object) { return s },
    async updateSession(s: object) { return s },
    async deleteSession() {},
    async createVerificationToken(v: object) { return v },
    async useVerificationToken() { return null },
  }
}

/** The session cookie's value: the database token, or a JWT of the same user. */
const cookieValue = strategy === "jwt" ? await encode({ token: { sub: user.id, name: user.name, email: user.email, picture: user.image }, secret, salt: "authlib.session-token" }) : token

const builds = { A: (await import(pathToFileURL(resolve(a)).href)).Auth as Auth, B: (await import(pathToFileURL(resolve(b)).href)).Auth as Auth }
const tasks: Record<string, () => Promise<void>> = {}
for (const [name, auth] of Object.entries(builds)) {
  const config = {
    providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {}, password: {} }, authorize: async () => null }],
    secret, url: origin, trustHost: true, basePath: "/auth", logger: quiet,
    ...(strategy === "jwt" ? {} : { adapter: memoryStore(), session: { strategy: "database" } }),
  }
  const read = async () => {
    const res = await auth(new Request(`${origin}/auth/session`, { headers: { cookie: `authlib.session-token=${cookieValue}` } }), config, { clientAddress: "203.0.113.7" })
    const body = (await res.json()) as { user?: { email?: string } } | null
    if (body?.user?.email !== user.email) throw new Error(`core-session-ab: build ${name} answered ${JSON.stringify(body)}`)
  }
  await read()
  tasks[name] = read
}

const { summary, ratio } = await cpuRounds(tasks, Number(rounds), Number(perBatch))
console.log(summary())
console.log(`B / A: ${ratio("B", "A")}`)
