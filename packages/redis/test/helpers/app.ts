/**
 * App instances for the cache tests, in one process: each instance is `Auth()` with its own config
 * whose adapter is `withRedisCache(<the shared database>, { client: <its own Redis connection> })`,
 * as separate servers behind a load balancer would be. A `Browser` keeps cookies across instances.
 */
import { afterAll, beforeAll, inject } from "vitest"
import { createClient } from "redis"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { Auth, type Adapter, type AdapterUser, type AuthConfig } from "@authlib/core"
import { withRedisCache, type RedisCacheOptions } from "../../src/index.js"
import { startRedisServer, type RedisServer } from "@authlib/e2e-kit/redis-server"

export const SECRET = "redis-cache-tests-secret-0123456789-abcdefghijklmnop"
export const ORIGIN = "http://localhost:3000"

/** A connected node-redis client whose errors are expected (servers are stopped on purpose). */
export async function connectClient(url: string) {
  const client = createClient({ url, socket: { reconnectStrategy: 50, connectTimeout: 2_000 } })
  client.on("error", () => {})
  await client.connect()
  return client
}

export type Client = Awaited<ReturnType<typeof connectClient>>

/** Closes a client whether or not its server is still up. */
export async function closeClient(client: Client): Promise<void> {
  if (client.isReady) await client.quit().catch(() => client.destroy())
  else if (client.isOpen) client.destroy()
}

/** Calls per adapter method, counted on the way in (instrumentation around the real adapter). */
export function counted<A extends Adapter>(adapter: A): { adapter: A; calls: Record<string, number> } {
  const calls: Record<string, number> = {}
  const out: Record<string, unknown> = {}
  for (const [name, fn] of Object.entries(adapter)) {
    if (typeof fn !== "function") continue
    out[name] = (...args: unknown[]) => {
      calls[name] = (calls[name] ?? 0) + 1
      const result = (fn as (...a: unknown[]) => unknown).apply(adapter, args)
      // `<name>:answered`: calls that answered a record (for a conditional write, the ones that wrote).
      void Promise.resolve(result).then((r) => r && (calls[`${name}:answered`] = (calls[`${name}:answered`] ?? 0) + 1), () => {})
      return result
    }
  }
  return { adapter: out as A, calls }
}

/**
 * The adapter with `method` paused once armed: the next call loads from the database, then waits
 * until `release()` before answering, so a test can interleave a write between the database read
 * and the cache fill, deterministically.
 */
export function gated<A extends Adapter>(adapter: A, method: keyof Adapter): { adapter: A; arm(): { loaded: Promise<void>; release(): void } } {
  let gate: { loaded: () => void; wait: Promise<void> } | undefined
  const inner = adapter[method] as (...args: unknown[]) => unknown
  const out = { ...adapter, [method]: async (...args: unknown[]) => {
    const result = await inner.apply(adapter, args)
    const current = gate
    gate = undefined
    if (current) (current.loaded(), await current.wait)
    return result
  } } as A
  return {
    adapter: out,
    arm() {
      let loaded!: () => void
      let release!: () => void
      const loadedP = new Promise<void>((r) => (loaded = r))
      const wait = new Promise<void>((r) => (release = r))
      gate = { loaded, wait }
      return { loaded: loadedP, release }
    },
  }
}

export interface Instance {
  config: AuthConfig
  adapter: Adapter
  client: Client
}

/** One app instance: its own Redis connection and cache in front of the shared `db`. */
export async function instance(db: Adapter, url: string, over: Partial<AuthConfig> = {}, cache: Partial<RedisCacheOptions> = {}): Promise<Instance> {
  const client = await connectClient(url)
  const adapter = withRedisCache(db, { client, logger: { warn: () => {}, error: () => {} }, ...cache })
  return { client, adapter, config: appConfig(adapter, over) }
}

/** Password sign-in for the users of `db` (any user whose name is the username; password "correct"). */
export function appConfig(adapter: Adapter, over: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    rateLimit: false,
    providers: [
      {
        id: "password",
        name: "Password",
        type: "credentials",
        credentials: { email: { label: "E-mail" }, password: { label: "Password", type: "password" } },
        async authorize(c) {
          if (c.password !== "correct" || typeof c.email !== "string") return null
          return ((await adapter.getUserByEmail?.(c.email)) ?? null) as AdapterUser | null
        },
      },
    ],
    ...over,
  } as AuthConfig
}

/** A browser: one cookie jar, any instance. */
export class Browser {
  readonly jar = new CookieJar(ORIGIN)

  /** Takes `other`'s cookies (a copy of a stolen or kept cookie, to replay after a sign-out). */
  copy(other: Browser): this {
    for (const [k, v] of other.jar) this.jar.set(k, v)
    return this
  }

  async request(on: Instance, path: string, init: RequestInit & { form?: Record<string, string> } = {}): Promise<Response> {
    const { form, ...rest } = init
    const headers = new Headers(rest.headers)
    const method = rest.method ?? (form ? "POST" : "GET")
    if (method === "POST") headers.set("origin", ORIGIN)
    const url = new URL(path, ORIGIN)
    this.jar.apply(headers, url)
    let body = rest.body
    if (form) (headers.set("content-type", "application/x-www-form-urlencoded"), (body = new URLSearchParams(form).toString()))
    const res = await Auth(new Request(url, { ...rest, method, headers, ...(body !== undefined ? { body } : {}) }), on.config)
    return this.jar.keep(res, url)
  }

  async post(on: Instance, path: string, form: Record<string, string> = {}): Promise<Response> {
    const csrf = (await (await this.request(on, "/auth/csrf")).json()) as { csrfToken: string }
    return this.request(on, path, { method: "POST", form: { csrfToken: csrf.csrfToken, ...form } })
  }

  async signIn(on: Instance, email: string): Promise<void> {
    const res = await this.post(on, "/auth/callback/password", { email, password: "correct" })
    if (res.status !== 302 || !this.jar.has("authlib.session-token")) throw new Error(`sign-in failed: ${res.status} ${res.headers.get("location")}`)
  }

  async session(on: Instance): Promise<{ user: { email?: string; name?: string | null }; expires: string } | null> {
    return (await (await this.request(on, "/auth/session")).json()) as never
  }

  /** The Request of a server function (`revokeOtherSessions`...): this browser's cookies. */
  serverRequest(): Request {
    return new Request(`${ORIGIN}/account`, { headers: { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ") } })
  }
}

/** A user of the shared database. */
export async function makeUser(db: Adapter, name = "Alice"): Promise<AdapterUser> {
  const id = crypto.randomUUID()
  return db.createUser!({ id, email: `${id}@example.com`, emailVerified: null, name })
}

/** A quiet logger for the cache in tests. */
export const quiet = { warn: () => {}, error: () => {} }

/**
 * A redis-server of this test file's own and a client connected to it, started before the file's
 * tests and stopped after them; `use` receives the client (and the server) once they are up.
 */
export function redisForFile(use: (client: Client, server: RedisServer) => void): void {
  let server: RedisServer | undefined
  let client: Client | undefined
  beforeAll(async () => {
    server = await startRedisServer(inject("redisServer"))
    client = await connectClient(server.url)
    use(client, server)
  })
  afterAll(async () => {
    if (client) await closeClient(client)
    await server?.stop()
  })
}
