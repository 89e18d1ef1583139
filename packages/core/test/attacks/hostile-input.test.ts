import { describe, expect, it } from "vitest"
import { Client, config, ORIGIN, recordingLogger } from "../helpers/harness.js"

describe("a forwarded protocol that is not http or https", () => {
  for (const proto of ["javascript", "foo", "ws"]) {
    it(`X-Forwarded-Proto: ${proto} is ignored: links keep the request's scheme and nothing throws`, async () => {
      const { logger, entries } = recordingLogger()
      const client = new Client(config({ logger }))
      const res = await client.request("/auth/signout", { headers: { "x-forwarded-proto": proto }, form: {} })
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`)
      const page = await client.request("/auth/error?error=AccessDenied", { headers: { "x-forwarded-proto": proto } })
      expect(page.status).toBe(403)
      expect(entries.filter((e) => e.level === "error")).toEqual([])
    })
  }
})

describe("malformed requests are logged", () => {
  it("a refused request reaches the configured logger (debug, with its type and code)", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger }))
    const res = await client.request("/auth/signout", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" })
    expect(res.status).toBe(415)
    const logged = entries.find((e) => e.code === "InvalidRequest")
    expect(logged?.level).toBe("debug")
    expect(logged?.message[0]).toMatchObject({ code: "CONTENT_TYPE_UNSUPPORTED" })
  })
})

describe("deeply nested JSON", () => {
  it("a JSON body nested deeper than 32 levels is a 400 before any callback sees it", async () => {
    const client = new Client(config({ callbacks: { jwt: ({ token, session }) => (session ? { ...token, s: session } : token) } }))
    await client.signIn()
    const csrfToken = await client.csrfToken()
    const deep = "[".repeat(20_000) + "]".repeat(20_000)
    const res = await client.request("/auth/session", { method: "POST", headers: { "content-type": "application/json" }, body: `{"csrfToken":"${csrfToken}","data":${deep}}` })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: "InvalidRequest", code: "JSON_BODY_TOO_DEEP" })
    const ok = await client.request("/auth/session", { json: { csrfToken, data: { a: { b: ["c", { d: "[{\"" }] } } } })
    expect(ok.status).toBe(200)
  })
})

describe("a permissive redirect callback", () => {
  it("a callbackUrl with CR/LF passed through by the app's callback is an error page, never a 500", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger, callbacks: { redirect: ({ url, baseUrl }) => (url.startsWith(baseUrl) ? url : baseUrl) } }))
    await client.signIn()
    const res = await client.post("/auth/signout", { callbackUrl: `${ORIGIN}/x\r\nSet-Cookie: a=b` })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(entries.find((e) => e.level === "error")?.message[0]).toMatchObject({ type: "InvalidCallbackUrl", code: "CALLBACK_URL_CONTROL_CHARS" })
  })
})
