/**
 * authlib in the database bench: `@authlib/core` with database sessions on `@authlib/xata-adapter`
 * over node-postgres (one counted connection), default rate limits (memory store) and a client
 * address, as an app runs it. Ada has a credentials account, an e-mail account and a passkey, all
 * made through the library's own flows or adapter before measuring.
 */
import { createHash, randomBytes } from "node:crypto"
import { Auth, type AuthConfig } from "@authlib/core"
import { XataAdapter } from "@authlib/xata-adapter"
import { SoftAuthenticator } from "../packages/core/test/capabilities/webauthn/authenticator.js"
import type { CountedPool } from "./db-server.js"
import { ada, browser, expectSignedIn, origin, password, post, queue, quiet, secret, type Implementation } from "./db-fixture.js"

const sha256url = (value: string) => createHash("sha256").update(value).digest("base64url")
const COOKIE = "authlib.session-token"

export interface AuthlibFixture extends Implementation {
  /** Ada's stored user id and her passkey, which the floor shares (same tables, same rows). */
  userId: string
  device: SoftAuthenticator
}

export async function authlibImplementation(counted: CountedPool, setup: CountedPool["pool"]): Promise<AuthlibFixture> {
  const seed = XataAdapter(setup)
  const user = await seed.createUser({ id: crypto.randomUUID(), ...ada, emailVerified: new Date() })
  await seed.linkAccount({ userId: user.id, type: "credentials", provider: "credentials", providerAccountId: user.id })
  await seed.linkAccount({ userId: user.id, type: "email", provider: "email", providerAccountId: ada.email })
  const config: AuthConfig = {
    url: origin,
    secret,
    trustHost: true,
    logger: quiet,
    adapter: XataAdapter(counted.client),
    session: { strategy: "database" },
    experimental: { enableWebAuthn: true },
    // The default limits, counted as usual; only the passkey ceremonies per client (60 a minute) are
    // raised, since the bench is one client running thousands of them.
    rateLimit: { passkey: { perClient: [{ limit: 1e9, window: 60 }] } },
    providers: [
      {
        id: "credentials", name: "Credentials", type: "credentials",
        credentials: { username: {}, password: { type: "password" } },
        authorize: async (c) => (c.username === ada.email && c.password === password ? { id: user.id, ...ada } : null),
      },
      { id: "email", name: "Email", type: "email", sendVerificationRequest: async () => {} } as never,
      { id: "passkey", name: "Passkey", type: "webauthn", simpleWebAuthn: () => import("@simplewebauthn/server") as never },
    ],
  }
  const client = { clientAddress: "203.0.113.7" }
  const handler = (r: Request) => Auth(r, config, client)

  // Ada signs in with her password and adds a passkey, as a user would.
  const b = browser(handler)
  const { csrfToken } = (await (await b.request("/auth/csrf")).json()) as { csrfToken: string }
  const csrfCookie = `authlib.csrf-token=${b.jar.get("authlib.csrf-token")}`
  expectSignedIn("authlib set-up sign-in", await b.request("/auth/callback/credentials", { csrfToken, username: ada.email, password }), COOKIE)
  const device = new SoftAuthenticator("localhost", origin)
  const reg = (await (await b.request("/auth/webauthn-options/passkey?action=register")).json()) as { options: never }
  const registered = await b.request("/auth/callback/passkey", { csrfToken, action: "register", data: JSON.stringify(device.register(reg.options)) })
  if (registered.status !== 302 || (await seed.listAuthenticatorsByUserId(user.id)).length !== 1) throw new Error("bench: authlib passkey registration failed")

  const liveToken = randomBytes(32).toString("base64url")
  await seed.createSession({ sessionToken: sha256url(liveToken), userId: user.id, expires: new Date(Date.now() + 30 * 86_400_000) })

  const links = queue<string>()
  const ending = queue<string>()
  const passkeyCalls = queue<{ cookie: string; body: Record<string, string> }>()
  return {
    name: "authlib",
    userId: user.id,
    device,
    ops: {
      "GET /session": {
        async run() {
          const res = await handler(new Request(`${origin}/auth/session`, { headers: { cookie: `${COOKIE}=${liveToken}` } }))
          const body = (await res.json()) as { user?: { email?: string } } | null
          if (body?.user?.email !== ada.email) throw new Error(`bench: authlib GET /session answered ${JSON.stringify(body)}`)
        },
      },
      "credentials sign-in": {
        async run() {
          expectSignedIn("authlib credentials", await handler(post("/auth/callback/credentials", csrfCookie, { csrfToken, username: ada.email, password })), COOKIE)
        },
      },
      "e-mail link completion": {
        async prepare() {
          const token = randomBytes(32).toString("base64url")
          const hashed = createHash("sha256").update(`${token}${secret}`).digest("hex")
          await setup.query(`/* bench-setup */ INSERT INTO "authlib_verificationTokens" (identifier, token, expires) VALUES ($1, $2, $3)`, [ada.email, hashed, new Date(Date.now() + 600_000)])
          links.push(token)
        },
        async run() {
          const res = await handler(post("/auth/callback/email", csrfCookie, { csrfToken, token: links.take(), email: ada.email }))
          expectSignedIn("authlib e-mail completion", res, COOKIE)
        },
      },
      "passkey sign-in": {
        async prepare() {
          const res = await handler(new Request(`${origin}/auth/webauthn-options/passkey?action=authenticate`, { headers: { cookie: csrfCookie } }))
          const { options } = (await res.json()) as { options: { challenge: string } }
          const challengeCookie = res.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ")
          const data = JSON.stringify(device.authenticate(options, undefined, { counter: 0 }))
          passkeyCalls.push({ cookie: `${csrfCookie}; ${challengeCookie}`, body: { csrfToken, action: "authenticate", data } })
        },
        async run() {
          const call = passkeyCalls.take()
          expectSignedIn("authlib passkey", await handler(post("/auth/callback/passkey", call.cookie, call.body)), COOKIE)
        },
      },
      "sign-out": {
        async prepare() {
          const token = randomBytes(32).toString("base64url")
          await seed.createSession({ sessionToken: sha256url(token), userId: user.id, expires: new Date(Date.now() + 86_400_000) })
          ending.push(token)
        },
        async run() {
          const res = await handler(post("/auth/signout", `${csrfCookie}; ${COOKIE}=${ending.take()}`, { csrfToken }))
          if (res.status !== 302 || !res.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=;`) || (c.startsWith(`${COOKIE}=`) && /Max-Age=0/i.test(c))))
            throw new Error(`bench: authlib sign-out answered ${res.status}`)
        },
      },
    },
  }
}
