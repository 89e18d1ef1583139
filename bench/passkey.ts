/**
 * Passkey sign-in: POST callback/passkey with an ES256 assertion through `Auth()` (CSRF check,
 * challenge cookie, single-use record, `@simplewebauthn/server` verification, counter, session
 * cookie) against a floor that does the same verification written straight on node:crypto (CSRF
 * double-submit, challenge cookie decrypt, client data and authenticator data checks, ECDSA verify
 * with a cached key, session JWT). Both answer a 302 with the session cookie.
 *
 * One request is replayed: the bench adapter hands the challenge record back without using it up,
 * and the passkey's counter stays 0 (as synced passkeys report it), so the same answer verifies
 * every time. Single use itself is proven by core's tests, not here.
 */
import { createHash, createPublicKey, timingSafeEqual, verify, type KeyObject } from "node:crypto"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { Auth } from "@authlib/core"
import type { AdapterAuthenticator, AdapterUser, AuthConfig, VerificationToken } from "@authlib/core"
import { SoftAuthenticator } from "../packages/core/test/capabilities/webauthn/authenticator.js"
import type { BenchModule } from "./lib-bench.js"
import { createFloor } from "./lib-floor.js"
import { fmt, measure, printFigures } from "./lib-measure.js"

const secret = "bench-secret-bench-secret-bench-secret-0123"
const origin = "http://localhost:3000"
const user: AdapterUser = { id: "clx9d2k3j0000qz8l4b7g2h1m", name: "Ada Lovelace", email: "ada.lovelace@example.com", emailVerified: null }
const quiet = { error() {}, warn() {}, debug() {} }

/** An in-memory adapter with Maps; `useVerificationToken` leaves the record (see the header). */
function benchAdapter() {
  const authenticators = new Map<string, AdapterAuthenticator>()
  const accounts = new Map<string, string>()
  const tokens = new Map<string, VerificationToken>()
  const sessions = new Map<string, unknown>()
  return {
    authenticators,
    createUser: async (u: AdapterUser) => u,
    getUser: async (id: string) => (id === user.id ? user : null),
    getUserByEmail: async () => null,
    getUserByAccount: async (a: { provider: string; providerAccountId: string }) => (accounts.get(`${a.provider}:${a.providerAccountId}`) === user.id ? user : null),
    linkAccount: async (a: { provider: string; providerAccountId: string; userId: string }) => void accounts.set(`${a.provider}:${a.providerAccountId}`, a.userId),
    createSession: async (s: unknown) => (sessions.set("s", s), s),
    getSessionAndUser: async () => null,
    updateSession: async () => null,
    deleteSession: async () => null,
    createVerificationToken: async (t: VerificationToken) => (tokens.set(`${t.identifier}:${t.token}`, t), t),
    useVerificationToken: async (p: { identifier: string; token: string }) => tokens.get(`${p.identifier}:${p.token}`) ?? null,
    getAuthenticator: async (id: string) => authenticators.get(id) ?? null,
    createAuthenticator: async (a: AdapterAuthenticator) => (authenticators.set(a.credentialID, a), a),
    listAuthenticatorsByUserId: async (id: string) => [...authenticators.values()].filter((a) => a.userId === id),
    updateAuthenticatorCounter: async (id: string, counter: number) => ({ ...authenticators.get(id)!, counter }),
  }
}

/** A cookie jar over one handler. */
function client(handler: (r: Request) => Promise<Response>) {
  const jar = new CookieJar(origin)
  const cookie = () => jar.header()
  const request = async (path: string, form?: Record<string, string>) => {
    const headers = jar.apply(new Headers(), `${origin}${path}`)
    if (form) (headers.set("content-type", "application/x-www-form-urlencoded"), headers.set("origin", origin))
    const res = await handler(new Request(`${origin}${path}`, { method: form ? "POST" : "GET", headers, ...(form ? { body: new URLSearchParams(form) } : {}) }))
    return jar.keep(res, `${origin}${path}`)
  }
  return { jar, cookie, request }
}

interface Replay {
  headers: Record<string, string>
  body: string
}

/** Ours: Ada signs in with a password, adds a passkey; then one authenticate answer to replay. */
async function oursFixture(device: SoftAuthenticator): Promise<{ handler: (r: Request) => Promise<Response>; replay: Replay }> {
  const adapter = benchAdapter()
  const config: AuthConfig = {
    url: origin,
    secret,
    trustHost: true,
    logger: quiet,
    adapter: adapter as never,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [
      { id: "credentials", name: "Credentials", type: "credentials", credentials: {}, authorize: async () => ({ ...user }) },
      { id: "passkey", name: "Passkey", type: "webauthn", simpleWebAuthn: () => import("@simplewebauthn/server") as never },
    ],
  }
  const handler = (r: Request) => Auth(r, config)
  const c = client(handler)
  const { csrfToken } = (await (await c.request("/auth/csrf")).json()) as { csrfToken: string }
  await c.request("/auth/callback/credentials", { csrfToken })
  const reg = (await (await c.request("/auth/webauthn-options/passkey?action=register")).json()) as { options: never }
  const registered = await c.request("/auth/callback/passkey", { csrfToken, action: "register", data: JSON.stringify(device.register(reg.options)) })
  if (registered.status !== 302 || adapter.authenticators.size !== 1) throw new Error("bench: passkey registration failed")
  c.jar.delete("authlib.session-token")
  const auth = (await (await c.request("/auth/webauthn-options/passkey?action=authenticate")).json()) as { options: { challenge: string } }
  const data = JSON.stringify(device.authenticate(auth.options, undefined, { counter: 0 }))
  const body = new URLSearchParams({ csrfToken, action: "authenticate", data }).toString()
  return { handler, replay: { headers: { cookie: c.cookie(), "content-type": "application/x-www-form-urlencoded", origin }, body } }
}

/** The floor: the same checks and the same answer, straight on node:crypto. */
function floorFixture(device: SoftAuthenticator): { handler: (r: Request) => Promise<Response>; replay: Promise<Replay> } {
  const sessionJwt = createFloor(secret, "floor.session-token")
  const challengeJwt = createFloor(secret, "floor.challenge")
  const credential = device.credentials[0]!
  const key: KeyObject = createPublicKey(credential.publicKey.export({ format: "pem", type: "spki" }))
  const rpIdHash = createHash("sha256").update("localhost").digest()
  const records = new Set<string>()
  const csrfHash = (token: string) => createHash("sha256").update(`${token}${secret}`).digest("hex")
  const cookieOf = (h: Headers, name: string) => {
    for (const part of (h.get("cookie") ?? "").split(";")) {
      const [k, ...v] = part.trim().split("=")
      if (k === name) return v.join("=")
    }
    return undefined
  }
  async function handler(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text())
    const [token, digest] = (cookieOf(request.headers, "floor.csrf-token") ?? "").split("|")
    const sent = form.get("csrfToken") ?? ""
    if (request.headers.get("origin") !== origin || !token || token !== sent || !timingSafeEqual(Buffer.from(digest ?? ""), Buffer.from(csrfHash(token)))) return new Response(null, { status: 403 })
    const { challenge } = (await challengeJwt.decode(cookieOf(request.headers, "floor.challenge") ?? "")) as { challenge: string }
    if (!records.has(challenge)) return new Response(null, { status: 400 })
    const data = JSON.parse(form.get("data") ?? "") as { id: string; response: { clientDataJSON: string; authenticatorData: string; signature: string } }
    const clientDataJSON = Buffer.from(data.response.clientDataJSON, "base64url")
    const client = JSON.parse(clientDataJSON.toString()) as { type: string; challenge: string; origin: string }
    if (client.type !== "webauthn.get" || client.challenge !== challenge || client.origin !== origin) return new Response(null, { status: 400 })
    const authData = Buffer.from(data.response.authenticatorData, "base64url")
    if (!authData.subarray(0, 32).equals(rpIdHash) || (authData[32]! & 0x05) !== 0x05) return new Response(null, { status: 400 })
    const signed = Buffer.concat([authData, createHash("sha256").update(clientDataJSON).digest()])
    if (!verify("sha256", signed, key, Buffer.from(data.response.signature, "base64url"))) return new Response(null, { status: 400 })
    const session = await sessionJwt.encode({ name: user.name, email: user.email, sub: user.id })
    const headers = new Headers({ location: `${origin}/` })
    headers.append("set-cookie", `floor.session-token=${session}; Path=/; HttpOnly; SameSite=Lax`)
    headers.append("set-cookie", "floor.challenge=; Path=/; Max-Age=0")
    return new Response(null, { status: 302, headers })
  }
  async function replay(): Promise<Replay> {
    const challenge = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")
    records.add(challenge)
    const sealed = await challengeJwt.encode({ challenge }, 300)
    const csrf = "floor-csrf-token-0123456789"
    const data = JSON.stringify(device.authenticate({ challenge }, credential, { counter: 0 }))
    return {
      headers: { cookie: `floor.csrf-token=${csrf}|${csrfHash(csrf)}; floor.challenge=${sealed}`, "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ csrfToken: csrf, action: "authenticate", data }).toString(),
    }
  }
  return { handler, replay: replay() }
}

const passkey: BenchModule = {
  name: "passkey",
  async run(options) {
    const device = new SoftAuthenticator("localhost", origin)
    const ours = await oursFixture(device)
    const floor = floorFixture(device)
    const replays = { "@authlib/core": { handler: ours.handler, replay: ours.replay }, floor: { handler: floor.handler, replay: await floor.replay } }
    const tasks: Record<string, () => Promise<void>> = {}
    for (const [name, f] of Object.entries(replays)) {
      const send = async () => {
        const res = await f.handler(new Request(`${origin}/auth/callback/passkey`, { method: "POST", headers: f.replay.headers, body: f.replay.body }))
        if (res.status !== 302 || !res.headers.get("location")?.endsWith("/") || !res.headers.getSetCookie().some((c) => c.includes("session-token="))) {
          throw new Error(`bench: ${name} passkey sign-in answered ${res.status} ${res.headers.get("location")}`)
        }
      }
      await send()
      tasks[`POST passkey ${name}`] = send
    }
    const figures = await measure(tasks, options)
    printFigures("Passkey sign-in, in-process (latencies in microseconds)", figures)
    const ours1 = figures.get("POST passkey @authlib/core")!
    const floor1 = figures.get("POST passkey floor")!
    console.log(`\nours / floor: ${fmt(ours1.mean / floor1.mean, 2)} (p50 ${fmt(ours1.p50 / floor1.p50, 2)}); target <= 1.5`)
  },
}

export default passkey
