/**
 * `auth` as the proxy on Node.js with database sessions, against the real core and a memory
 * adapter: the session is core's answer (a stored session looked up), so a session deleted on the
 * server (revoked, signed out elsewhere) is refused on the very next request.
 */
import { createMemoryStore, MemoryAdapter } from "@authlib/adapter-test"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { NextRequest } from "next/server.js"
import { describe, expect, it } from "vitest"
import { NextAuth, type NextAuthConfig } from "../../src/index.js"

const ORIGIN = "http://app.test"
const store = createMemoryStore()
const adapter = MemoryAdapter(store)
const config: NextAuthConfig = {
  secret: "unit-tests-secret-0123456789abcdef0123",
  trustHost: true,
  adapter,
  session: { strategy: "database" },
  providers: [
    {
      id: "credentials",
      name: "Password",
      type: "credentials",
      credentials: { email: {}, password: {} },
      authorize: async (c) => (c.password === "right" ? { id: "user-ada", email: String(c.email), name: "Ada" } : null),
    },
  ],
  callbacks: { authorized: ({ auth }) => !!auth },
}
const { handlers, auth } = NextAuth(config)

function request(jar: CookieJar, path: string, init: { method?: string; body?: URLSearchParams } = {}): NextRequest {
  const url = new URL(path, ORIGIN)
  const headers = jar.apply(new Headers({ host: "app.test", origin: ORIGIN }), url)
  if (init.body) headers.set("content-type", "application/x-www-form-urlencoded")
  return new NextRequest(url, { method: init.method ?? "GET", headers, ...(init.body ? { body: init.body } : {}) })
}

async function signIn(jar: CookieJar): Promise<void> {
  const csrf = jar.keep(await handlers.GET(request(jar, "/api/auth/csrf")), ORIGIN)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const body = new URLSearchParams({ csrfToken, email: "ada@example.test", password: "right", callbackUrl: `${ORIGIN}/` })
  jar.keep(await handlers.POST(request(jar, "/api/auth/callback/credentials", { method: "POST", body })), ORIGIN)
}

describe("auth as the proxy, database sessions", () => {
  it("lets a stored session through and refuses it on the next request once it is deleted", async () => {
    const jar = new CookieJar(ORIGIN)
    await signIn(jar)
    expect(jar.has("authlib.session-token")).toBe(true)
    const through = await auth(request(jar, "/account"))
    expect(through.headers.get("x-middleware-next")).toBe("1")

    // Revoked on the server: every stored session of the user is gone.
    expect(store.sessions.size).toBe(1)
    const [stored] = [...store.sessions.values()]
    await adapter.deleteSession(stored!.sessionToken)

    const refused = await auth(request(jar, "/account"))
    expect(refused.status).toBe(307)
    expect(new URL(refused.headers.get("location")!).pathname).toBe("/api/auth/signin")
  })
})
