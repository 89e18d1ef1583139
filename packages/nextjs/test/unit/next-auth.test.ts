/**
 * `NextAuth(config)` without a Next server: its shape (Auth.js v5's names, core's server functions
 * through the one wrapper), the route handlers on Web requests, and the start-up refusal of
 * database sessions on the edge runtime.
 */
import { serverFunctions } from "@authlib/core/internal"
import { Configuration } from "@authlib/core"
import { MemoryAdapter } from "@authlib/adapter-test"
import { NextRequest } from "next/server.js"
import { afterEach, describe, expect, it } from "vitest"
import NextAuthDefault, { NextAuth, type NextAuthConfig } from "../../src/index.js"

const SECRET = "unit-tests-secret-0123456789abcdef0123"
const config = (extra: Partial<NextAuthConfig> = {}): NextAuthConfig => ({ secret: SECRET, trustHost: true, providers: [], ...extra })

describe("NextAuth(config)", () => {
  it("is the default export and the named one", () => {
    expect(NextAuthDefault).toBe(NextAuth)
  })

  it("answers handlers.GET/POST, auth, signIn, signOut, unstable_update", () => {
    const result = NextAuth(config())
    expect(typeof result.handlers.GET).toBe("function")
    expect(typeof result.handlers.POST).toBe("function")
    for (const name of ["auth", "signIn", "signOut", "unstable_update"] as const) expect(typeof result[name]).toBe("function")
  })

  it("exposes every server function of core's map, each through the wrapper, and nothing the map lacks", () => {
    const result = NextAuth(config()) as unknown as Record<string, unknown>
    const own = new Set(["handlers", "auth", "signIn", "signOut", "unstable_update"])
    const exposed = Object.keys(result).filter((key) => !own.has(key)).sort()
    expect(exposed).toEqual(Object.keys(serverFunctions).sort())
    for (const name of exposed) {
      expect(typeof result[name]).toBe("function")
      expect((result[name] as { name: string }).name).toBe(name)
      // The wrapper, not core's function itself (which takes a request and a config).
      expect(result[name]).not.toBe((serverFunctions as Record<string, unknown>)[name])
    }
  })
})

describe("handlers", () => {
  it("mount core at /api/auth by default", async () => {
    const { handlers } = NextAuth(config())
    const res = await handlers.GET(new NextRequest("http://app.test/api/auth/csrf"))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ csrfToken: expect.any(String) })
  })

  it("take the basePath from the config, or from WEBAUTH_URL's path", async () => {
    const { handlers } = NextAuth(config({ basePath: "/auth" }))
    expect((await handlers.GET(new NextRequest("http://app.test/auth/providers"))).status).toBe(200)
    process.env.WEBAUTH_URL = "http://app.test/custom"
    try {
      const fromUrl = NextAuth(config())
      expect((await fromUrl.handlers.GET(new NextRequest("http://app.test/custom/providers"))).status).toBe(200)
    } finally {
      delete process.env.WEBAUTH_URL
    }
  })

  it("call a config function with the request, once per request", async () => {
    const seen: (string | undefined)[] = []
    const fixed = config()
    const { handlers } = NextAuth((req) => {
      seen.push(req?.nextUrl.pathname)
      return fixed
    })
    await handlers.GET(new NextRequest("http://app.test/api/auth/providers"))
    expect(seen).toEqual(["/api/auth/providers"])
  })
})

describe("auth as the proxy", () => {
  it("lets a request through without callbacks.authorized", async () => {
    const { auth } = NextAuth(config())
    const res = await auth(new NextRequest("http://app.test/anything"))
    expect(res.headers.get("x-middleware-next")).toBe("1")
  })

  it("never refuses the sign-in routes, even when authorized answers false", async () => {
    const { auth } = NextAuth(config({ callbacks: { authorized: () => false } }))
    expect((await auth(new NextRequest("http://app.test/api/auth/signin"))).headers.get("x-middleware-next")).toBe("1")
    const refused = await auth(new NextRequest("http://app.test/private", { headers: { host: "app.test" } }))
    expect(refused.status).toBe(307)
    expect(new URL(refused.headers.get("location")!).searchParams.get("callbackUrl")).toBe("http://app.test/private")
  })

  it("refuses a call it cannot serve with a message naming the Pages Router helper", () => {
    const { auth } = NextAuth(config())
    expect(() => (auth as unknown as (a: unknown, b: unknown) => unknown)({}, {})).toThrow(/getServerSession from @authlib\/nextjs\/pages/)
  })
})

describe("the edge runtime", () => {
  const global = globalThis as { EdgeRuntime?: string }
  afterEach(() => {
    delete global.EdgeRuntime
  })

  it("refuses database sessions at start-up, naming the fix", () => {
    global.EdgeRuntime = "edge-runtime"
    const attempt = () => NextAuth(config({ adapter: MemoryAdapter() }))
    expect(attempt).toThrow(Configuration)
    expect(attempt).toThrow(/Run the proxy on Node\.js .* or use `session: \{ strategy: "jwt" \}`/)
  })

  it("runs JWT sessions", () => {
    global.EdgeRuntime = "edge-runtime"
    expect(() => NextAuth(config({ adapter: MemoryAdapter(), session: { strategy: "jwt" } }))).not.toThrow()
  })

  it("refuses a database configuration answered by a config function on its first request", async () => {
    global.EdgeRuntime = "edge-runtime"
    const { auth } = NextAuth(() => config({ adapter: MemoryAdapter() }))
    await expect(auth(new NextRequest("http://app.test/"))).rejects.toThrow(/Database sessions cannot be checked on the edge runtime/)
  })
})
