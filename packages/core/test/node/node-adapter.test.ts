/**
 * `@authlib/core/node` on real servers: node:http and Express 5 (with and without body parsers in
 * front), signing in over HTTP with a cookie jar, `getSession` from an app route, every
 * `Set-Cookie` on its own line, the body cap on streamed and declared bodies, and the configured
 * `url` winning over a forged `Host`.
 */
import { createServer, request as httpRequest } from "node:http"
import { listen } from "./listen.js"
import express from "express"
import { httpBrowser } from "./http-browser.js"
import { describe, expect, it } from "vitest"
import { getSession, toNodeHandler } from "../../src/node/index.js"
import type { AuthConfig } from "../../src/index.js"
import { alice, credentials, SECRET } from "../helpers/harness.js"


function config(over: Partial<AuthConfig> = {}): AuthConfig {
  return { secret: SECRET, trustHost: true, providers: [credentials()], logger: { error: () => {}, warn: () => {}, debug: () => {} }, ...over }
}


/** The raw response of a request, headers as the wire has them. */
function raw(origin: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunks?: number } = {}) {
  return new Promise<{ status: number; rawHeaders: string[]; body: string }>((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (c) => (body += c))
      res.on("end", () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body }))
    })
    req.on("error", reject)
    if (options.chunks) {
      const chunk = Buffer.alloc(16 * 1024, 97)
      let sent = 0
      const write = () => {
        while (sent < options.chunks!) {
          sent++
          if (!req.write(chunk)) return void req.once("drain", write)
        }
        req.end()
      }
      write()
    } else req.end(options.body)
  })
}

describe("node:http", () => {
  it("signs in over HTTP; other paths go to the app; getSession reads the session", async () => {
    const cfg = config()
    const auth = toNodeHandler(cfg)
    const origin = await listen(createServer((req, res) => auth(req, res, async () => {
      const session = await getSession(req, cfg, res)
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ app: true, session }))
    })))
    const b = httpBrowser(origin)
    expect(await (await b.request("/dashboard")).json()).toEqual({ app: true, session: null })
    const res = await b.signIn()
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${origin}/`)
    expect(await (await b.request("/auth/session")).json()).toMatchObject({ user: { name: alice.name, email: alice.email } })
    expect(await (await b.request("/dashboard")).json()).toMatchObject({ app: true, session: { user: { email: alice.email } } })
  })

  it("completes the config from process.env (AUTH_SECRET) as Auth.js's framework packages do, leaving the app's object as it is", async () => {
    const { secret: _secret, ...withoutSecret } = config()
    const cfg: AuthConfig = withoutSecret
    const before = JSON.stringify(cfg)
    const previous = process.env.AUTH_SECRET
    process.env.AUTH_SECRET = SECRET
    try {
      const auth = toNodeHandler(cfg)
      const origin = await listen(createServer((req, res) => auth(req, res, async () => {
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify({ session: await getSession(req, cfg, res) }))
      })))
      const b = httpBrowser(origin)
      expect((await b.signIn()).status).toBe(302)
      expect(await (await b.request("/me")).json()).toMatchObject({ session: { user: { email: alice.email } } })
      expect(JSON.stringify(cfg)).toBe(before)
      expect(cfg.secret).toBeUndefined()
    } finally {
      if (previous === undefined) delete process.env.AUTH_SECRET
      else process.env.AUTH_SECRET = previous
    }
  })

  it("an app callback that throws or rejects answers a 500 (no message, no stack), logged through the config's logger; the server stays up", async () => {
    const logged: unknown[][] = []
    const cfg = config({ logger: { error: (...args: unknown[]) => void logged.push(args), warn: () => {}, debug: () => {} } })
    const auth = toNodeHandler(cfg)
    const origin = await listen(createServer((req, res) => auth(req, res, req.url === "/sync" ? () => { throw new TypeError("app bug: sync") } : async () => {
      if (req.url === "/late") res.writeHead(200).write("partial")
      throw new TypeError(`app bug: ${req.url}`)
    })))
    for (const path of ["/sync", "/async"]) {
      const res = await fetch(`${origin}${path}`)
      expect(res.status).toBe(500)
      const body = await res.text()
      expect(JSON.parse(body)).toEqual({ error: "InternalServerError" })
      expect(body).not.toContain("app bug")
    }
    // Headers already sent: the response is ended as it is, the connection not left hanging.
    expect(await (await fetch(`${origin}/late`)).text()).toBe("partial")
    expect(logged.map(([code, err]) => [code, (err as Error).message])).toEqual([["UnknownError", "app bug: sync"], ["UnknownError", "app bug: /async"], ["UnknownError", "app bug: /late"]])
    expect((await fetch(`${origin}/auth/csrf`)).status).toBe(200)
  })

  it("getSession on a broken configuration throws the configuration's error (what is missing), as the routes log it", async () => {
    const { secret: _secret, ...withoutSecret } = config()
    const previous = process.env.AUTH_SECRET
    delete process.env.AUTH_SECRET
    try {
      const req = { headers: {}, socket: {} } as unknown as Parameters<typeof getSession>[0]
      await expect(getSession(req, withoutSecret)).rejects.toMatchObject({ type: "MissingSecret", code: "SECRET_MISSING", message: expect.stringContaining("set AUTH_SECRET") })
    } finally {
      if (previous !== undefined) process.env.AUTH_SECRET = previous
    }
  })

  it("without next, a path outside basePath is a 404", async () => {
    const origin = await listen(createServer(toNodeHandler(config())))
    expect((await fetch(`${origin}/elsewhere`)).status).toBe(404)
  })

  it("writes each Set-Cookie on its own header line", async () => {
    const origin = await listen(createServer(toNodeHandler(config())))
    const csrf = await fetch(`${origin}/auth/csrf`)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    // A sign-in that also clears the remembered callback URL answers three cookies (with the device mark).
    const res = await raw(origin, "/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin, cookie: `${csrfCookie}; authlib.callback-url=${encodeURIComponent(origin)}` },
      body: new URLSearchParams({ csrfToken, username: "alice", password: "wonderland" }).toString(),
    })
    const lines = res.rawHeaders.flatMap((h, i) => (i % 2 === 0 && h.toLowerCase() === "set-cookie" ? [res.rawHeaders[i + 1]!] : []))
    expect(lines).toHaveLength(3)
    expect(lines.some((l) => l.startsWith("authlib.device-mark="))).toBe(true)
    expect(lines.some((l) => l.startsWith("authlib.session-token="))).toBe(true)
    expect(lines.some((l) => l.startsWith("authlib.callback-url=;"))).toBe(true)
  })

  it("caps the body: a declared or a streamed body over 64 KiB is 413 without buffering it", async () => {
    const origin = await listen(createServer(toNodeHandler(config())))
    const declared = await raw(origin, "/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(1 << 20) }, body: Buffer.alloc(1 << 20, 97) })
    expect(declared.status).toBe(413)
    expect(JSON.parse(declared.body)).toMatchObject({ error: "InvalidRequest", code: "BODY_TOO_LARGE" })
    const streamed = await raw(origin, "/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" }, chunks: 64 })
    expect(streamed.status).toBe(413)
  })

  it("makes no Web Request for a route (or getSession) that does not ask for one; authorize still gets the request's URL, method and headers", async () => {
    const seen: Array<{ url: string; method: string; agent: string | null; body: ReadableStream | null }> = []
    const provider = credentials({
      async authorize(c, request) {
        seen.push({ url: request.url, method: request.method, agent: request.headers.get("user-agent"), body: request.body })
        return c.username === "alice" && c.password === "wonderland" ? { ...alice } : null
      },
    })
    const cfg = config({ providers: [provider] })
    const auth = toNodeHandler(cfg)
    const origin = await listen(createServer((req, res) => auth(req, res, async () => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ session: await getSession(req, cfg, res) }))
    })))
    // Requests the code under test makes with the global constructor (fetch keeps its own).
    const made: string[] = []
    const Original = globalThis.Request
    globalThis.Request = class extends Original {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(input, init)
        made.push(`${this.method} ${new URL(this.url).pathname}`)
      }
    }
    try {
      const b = httpBrowser(origin)
      expect((await b.request("/auth/session")).status).toBe(200)
      expect((await b.request("/auth/csrf")).status).toBe(200)
      expect((await b.request("/auth/providers")).status).toBe(200)
      expect(made).toEqual([])
      const res = await b.signIn()
      expect(res.status).toBe(302)
      expect(await (await b.request("/auth/session")).json()).toMatchObject({ user: { email: alice.email } })
      expect(await (await b.request("/dashboard")).json()).toMatchObject({ session: { user: { email: alice.email } } })
      // Only the sign-in made one: for authorize.
      expect(made).toEqual(["POST /auth/callback/credentials"])
    } finally {
      globalThis.Request = Original
    }
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ url: `${origin}/auth/callback/credentials`, method: "POST", body: null })
    expect(seen[0]!.agent).not.toBeNull()
  })

  it("reads a body it was handed as core reads a Request's: bad UTF-8 and bad percent-encoding are 400s, an unknown method a 405", async () => {
    const origin = await listen(createServer(toNodeHandler(config())))
    const form = { "content-type": "application/x-www-form-urlencoded", origin }
    const utf8 = await raw(origin, "/auth/callback/credentials", { method: "POST", headers: form, body: Buffer.from([0x75, 0x3d, 0xff, 0xfe]) })
    expect(utf8.status).toBe(400)
    expect(JSON.parse(utf8.body)).toMatchObject({ error: "InvalidRequest", code: "BODY_ENCODING_INVALID" })
    const percent = await raw(origin, "/auth/callback/credentials", { method: "POST", headers: form, body: "username=%E0%A4%A" })
    expect(percent.status).toBe(400)
    expect(JSON.parse(percent.body)).toMatchObject({ code: "FORM_BODY_INVALID" })
    // A method a Web Request refuses to carry (TRACE) used to fail its conversion and answer 500.
    const trace = await raw(origin, "/auth/session", { method: "TRACE" })
    expect(trace.status).toBe(405)
    expect(JSON.parse(trace.body)).toMatchObject({ error: "MethodNotAllowed" })
  })

  it("counts the headers it copied against core's limit: past 16 KiB in all (split over several lines too) is a 431, under it is read", async () => {
    // node's own parser stops at 16 KiB by default; an app may raise it, and core's limit still holds.
    const origin = await listen(createServer({ maxHeaderSize: 128 * 1024 }, toNodeHandler(config())))
    const huge = await raw(origin, "/auth/session", { headers: { "x-junk": "y".repeat(20 * 1024) } })
    expect(huge.status).toBe(431)
    expect(JSON.parse(huge.body)).toMatchObject({ code: "HEADERS_TOO_LARGE" })
    const split = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`x-part-${i}`, "z".repeat(3 * 1024)]))
    expect((await raw(origin, "/auth/session", { headers: split })).status).toBe(431)
    expect((await raw(origin, "/auth/session", { headers: { "x-junk": "y".repeat(12 * 1024) } })).status).toBe(200)
  })

  it("getSession appends a refreshed session cookie after the app's own, and reads no session from a forged cookie", async () => {
    const cfg = config({ session: { updateAge: 0 } })
    const auth = toNodeHandler(cfg)
    const origin = await listen(createServer((req, res) => auth(req, res, async () => {
      res.setHeader("set-cookie", "app=1; Path=/")
      const session = await getSession(req, cfg, res)
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ session }))
    })))
    const b = httpBrowser(origin)
    await b.signIn()
    const cookie = [...b.jar.entries()].map(([k, v]) => `${k}=${v}`).join("; ")
    const read = await raw(origin, "/dashboard", { headers: { cookie } })
    expect(JSON.parse(read.body)).toMatchObject({ session: { user: { email: alice.email } } })
    const lines = read.rawHeaders.flatMap((h, i) => (i % 2 === 0 && h.toLowerCase() === "set-cookie" ? [read.rawHeaders[i + 1]!] : []))
    expect(lines[0]).toBe("app=1; Path=/")
    expect(lines.slice(1).some((l) => l.startsWith("authlib.session-token="))).toBe(true)
    const forged = await raw(origin, "/dashboard", { headers: { cookie: "authlib.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC" } })
    expect(JSON.parse(forged.body)).toEqual({ session: null })
  })

  it("with url configured, a forged Host changes no URL the handler builds", async () => {
    const origin = await listen(createServer(toNodeHandler(config({ url: "https://app.example.com" }))))
    const res = await raw(origin, "/auth/signin/credentials", { method: "POST", headers: { host: "evil.example", "content-type": "application/x-www-form-urlencoded", origin: "https://app.example.com" }, body: "" })
    const location = res.rawHeaders[res.rawHeaders.findIndex((h) => h.toLowerCase() === "location") + 1] ?? ""
    expect(location.startsWith("https://app.example.com/")).toBe(true)
  })
})

describe("Express 5", () => {
  for (const parsers of [false, true]) {
    it(`mounted at /auth ${parsers ? "after express.urlencoded() and express.json()" : "with no body parser"}: sign-in, session, sign-out`, async () => {
      const cfg = config()
      const app = express()
      if (parsers) app.use(express.urlencoded({ extended: false }), express.json())
      app.use("/auth", toNodeHandler(cfg))
      app.get("/me", async (req, res) => {
        res.json({ session: await getSession(req, cfg, res) })
      })
      const origin = await listen(createServer(app))
      const b = httpBrowser(origin)
      expect((await b.signIn()).headers.get("location")).toBe(`${origin}/`)
      expect(await (await b.request("/me")).json()).toMatchObject({ session: { user: { email: alice.email } } })
      const { csrfToken } = (await (await b.request("/auth/csrf")).json()) as { csrfToken: string }
      const out = await b.request("/auth/signout", { method: "POST", headers: { "content-type": "application/json", origin }, body: JSON.stringify({ csrfToken }) })
      expect(out.status).toBe(302)
      expect(await (await b.request("/me")).json()).toEqual({ session: null })
    })
  }

  it("an app route after the handler still runs for its own paths", async () => {
    const app = express()
    app.use(toNodeHandler(config()))
    app.get("/health", (_req, res) => void res.send("ok"))
    const origin = await listen(createServer(app))
    expect(await (await fetch(`${origin}/health`)).text()).toBe("ok")
  })
})

describe("client address", () => {
  it("toNodeHandler hands core the socket's address: per-client limits apply, a forged X-Forwarded-For does not escape them", async () => {
    const { MemoryRateLimitStore } = await import("../../src/index.js")
    const origin = await listen(createServer(toNodeHandler(config({ rateLimit: { store: new MemoryRateLimitStore(), csrf: { perClient: { limit: 2, window: 60 } } } }))))
    const mint = (xff: string) => fetch(`${origin}/auth/csrf`, { headers: { "x-forwarded-for": xff } })
    expect((await mint("198.51.100.1")).status).toBe(200)
    expect((await mint("198.51.100.2")).status).toBe(200)
    const refused = await mint("198.51.100.3")
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ error: "RateLimited", code: "LIMIT_REACHED" })
  })
})
