/**
 * `toNodeHandler` writes core's answer to the socket without making a Web `Response`
 * (`src/node/send-parts.ts`), and what it writes is what the former path wrote: `Auth()`'s `Response` sent by
 * `sendWebResponse`, status, header lines (order included) and body, for each kind of answer, with
 * the answers that need a `Response` (route headers such as a page's) still sent through one;
 * several cookies go straight too, in their order.
 */
import { createServer, request as httpRequest } from "node:http"
import { listen } from "./listen.js"
import { describe, expect, it } from "vitest"
import { sendWebResponse, toNodeHandler, toWebRequest } from "../../src/node/index.js"
import { Auth, type AuthConfig } from "../../src/index.js"
import { credentials, SECRET } from "../helpers/harness.js"


// One origin for both servers (`url`): the answers that name it are then the same.
const APP = "http://app.test"
const config: AuthConfig = { url: APP, secret: SECRET, trustHost: true, providers: [credentials()], logger: { error: () => {}, warn: () => {}, debug: () => {} } }

interface Wire {
  status: number
  lines: string[]
  body: string
}

/** The response as the wire has it, `Date` left out (it may tick between two requests). */
function wire(origin: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (c) => (body += c))
      res.on("end", () => {
        const lines: string[] = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i]!.toLowerCase() !== "date") lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`)
        resolve({ status: res.statusCode!, lines, body })
      })
    })
    req.on("error", reject)
    req.end(options.body)
  })
}

/** Counts the `Response`s made while `run` runs (core makes each with the global constructor). */
async function responsesMadeDuring<T>(run: () => Promise<T>): Promise<{ result: T; made: number }> {
  const Original = globalThis.Response
  let made = 0
  globalThis.Response = class extends Original {
    constructor(...args: ConstructorParameters<typeof Response>) {
      super(...args)
      made++
    }
  }
  try {
    return { result: await run(), made }
  } finally {
    globalThis.Response = Original
  }
}

/** The same answers, both ways: through `toNodeHandler`, and through `Auth()` and `sendWebResponse` as it sent them before. */
async function bothWays(): Promise<{ direct: string; viaResponse: string }> {
  const direct = await listen(createServer(toNodeHandler(config)))
  const viaResponse = await listen(
    createServer((req, res) => {
      void (async () => {
        const request = await toWebRequest(req, { origin: APP })
        await sendWebResponse(res, await Auth(request, config, { clientAddress: req.socket.remoteAddress! }))
      })()
    }),
  )
  return { direct, viaResponse }
}

describe("toNodeHandler writes core's answer without a Web Response", () => {
  it("makes no Response for a JSON answer, an answer with one cookie or a redirect", async () => {
    const { direct } = await bothWays()
    const { made, result } = await responsesMadeDuring(async () => [
      await wire(direct, "/auth/session"),
      await wire(direct, "/auth/providers"),
      await wire(direct, "/auth/csrf"),
      await wire(direct, "/auth/signin/credentials", { method: "POST" }),
    ])
    expect(result.map((r) => r.status)).toEqual([200, 200, 200, 302])
    expect(result[2]!.lines.filter((l) => l.startsWith("set-cookie:"))).toHaveLength(1)
    expect(made).toBe(0)
  })

  it("writes the status, header lines in order and body the Response path writes, for every kind of answer", async () => {
    const { direct, viaResponse } = await bothWays()
    // A known CSRF cookie: the answers that read it are then the same both ways.
    const csrf = await fetch(`${direct}/auth/csrf`)
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    const requests: Array<[string, Parameters<typeof wire>[2]]> = [
      ["/auth/session", {}],
      ["/auth/providers", {}],
      ["/auth/signin", { headers: { cookie: csrfCookie } }],
      ["/auth/error?error=AccessDenied", {}],
      ["/auth/no-such-action", {}],
      ["/auth/session", { method: "PUT" }],
      ["/auth/signin/credentials", { method: "POST", headers: { cookie: csrfCookie } }],
      ["/auth/signin/credentials", { method: "POST", headers: { cookie: csrfCookie, "x-auth-return-redirect": "1" } }],
      ["/auth/csrf", { headers: { cookie: csrfCookie } }],
    ]
    for (const [path, options] of requests) {
      const a = await wire(direct, path, options)
      const b = await wire(viaResponse, path, options)
      expect({ path, ...a }).toEqual({ path, ...b })
    }
    // A new CSRF cookie (a random value): the same lines but for the value.
    const mask = (w: Wire) => ({ ...w, lines: w.lines.map((l) => l.replace(/^(set-cookie: [^=]+=)[^;]*/i, "$1*")), body: w.body.replace(/"csrfToken":"[^"]*"/, "") })
    expect(mask(await wire(direct, "/auth/csrf"))).toEqual(mask(await wire(viaResponse, "/auth/csrf")))
  })

  it("sends an answer with route headers (a page's) through a Response, and one with several cookies straight, the same lines as before", async () => {
    const { direct, viaResponse } = await bothWays()
    const csrf = await fetch(`${direct}/auth/csrf`)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    const signIn = (origin: string) =>
      wire(origin, "/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: APP, cookie: `${csrfCookie}; authlib.callback-url=${encodeURIComponent(APP)}` },
        body: new URLSearchParams({ csrfToken, username: "alice", password: "wonderland" }).toString(),
      })
    expect((await responsesMadeDuring(() => wire(direct, "/auth/signin"))).made).toBe(1)
    const { result, made } = await responsesMadeDuring(() => signIn(direct))
    expect(made).toBe(0)
    expect(result.lines.filter((l) => l.startsWith("set-cookie:")).length).toBeGreaterThan(1)
    const names = (w: Wire) => w.lines.map((l) => l.replace(/^(set-cookie: [^=]+=).*/i, "$1"))
    const before = await signIn(viaResponse)
    expect(result.status).toBe(302)
    expect(names(result)).toEqual(names(before))
  })
})
