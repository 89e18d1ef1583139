import { describe, expect, it } from "vitest"
import { Client, config, ORIGIN, recordingLogger } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"

const big = "x".repeat(70 * 1024)

/** [description, path, init] of requests that must all be refused with a 4xx JSON error. */
const corpus: Array<[string, string, RequestInit, number]> = [
  ["unknown action", "/auth/nope", {}, 404],
  ["action with extra segments", "/auth/session/extra/more", {}, 404],
  ["provider id on an action without one", "/auth/session/x", {}, 404],
  ["path outside basePath", "/other/session", {}, 404],
  ["basePath itself", "/auth", {}, 404],
  ["an action with no handler in this version", "/auth/webauthn-options/passkey", {}, 404],
  ["PUT on session", "/auth/session", { method: "PUT" }, 405],
  ["HEAD on session", "/auth/session", { method: "HEAD" }, 405],
  ["DELETE on signout", "/auth/signout", { method: "DELETE" }, 405],
  ["POST on providers", "/auth/providers", { method: "POST" }, 405],
  ["POST on csrf", "/auth/csrf", { method: "POST" }, 405],
  ["GET on callback of a POST-only provider", "/auth/callback/credentials", {}, 405],
  ["bad percent-encoding in the path", "/auth/callback/%E0%A4%A", { method: "POST" }, 400],
  ["bad percent-encoding in the query", "/auth/signin?callbackUrl=%E0%A4%A", {}, 400],
  ["invalid JSON body", "/auth/session", { method: "POST", headers: { "content-type": "application/json" }, body: "{\"csrfToken\":" }, 400],
  ["JSON body that is an array", "/auth/session", { method: "POST", headers: { "content-type": "application/json" }, body: "[1,2]" }, 400],
  ["JSON body that is a string", "/auth/signout", { method: "POST", headers: { "content-type": "application/json" }, body: "\"x\"" }, 400],
  ["form body with bad percent-encoding", "/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "username=%ZZ&password=x" }, 400],
  ["body that is not UTF-8", "/auth/signout", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new Uint8Array([0x61, 0x3d, 0xff, 0xfe]) }, 400],
  ["oversized form body", "/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `username=${big}` }, 413],
  ["oversized body with a lying content-length", "/auth/signout", { method: "POST", headers: { "content-type": "application/json", "content-length": "99999999" }, body: "{}" }, 413],
  ["unsupported content type", "/auth/callback/credentials", { method: "POST", headers: { "content-type": "text/plain" }, body: "username=alice" }, 415],
  ["multipart body", "/auth/signout", { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x" }, body: "--x--" }, 415],
  ["huge headers", "/auth/session", { headers: { "x-junk": "y".repeat(20 * 1024) } }, 431],
  ["huge cookie header", "/auth/session", { headers: { cookie: `a=${"z".repeat(17 * 1024)}` } }, 431],
]

describe("malformed requests answer 4xx JSON, leak nothing and write nothing", () => {
  for (const [name, path, init, status] of corpus) {
    it(`${name} -> ${status}`, async () => {
      const adapter = memoryAdapter()
      const client = new Client(config({ adapter }))
      const res = await client.request(path, { ...init, headers: { origin: ORIGIN, ...(init.headers as Record<string, string>) } })
      expect(res.status).toBe(status)
      expect(res.headers.get("content-type")).toBe("application/json")
      const text = await res.text()
      const body = JSON.parse(text) as { error: string; message: string }
      expect(typeof body.error).toBe("string")
      expect(text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/)
      expect(adapter.writes()).toEqual([])
      expect(res.headers.get("set-cookie")).toBeNull()
    })
  }

  it("405 names the allowed methods", async () => {
    const res = await new Client(config()).request("/auth/session", { method: "PATCH" })
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("GET, POST")
    expect(await res.json()).toMatchObject({ error: "MethodNotAllowed", code: "METHOD_NOT_ALLOWED" })
  })

  it("an unknown action says which error it is", async () => {
    const res = await new Client(config()).request("/auth/../etc/passwd")
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ error: "UnknownAction", code: "ACTION_UNKNOWN" })
  })

  it("a garbage session cookie reads as no session and is cleared, without an adapter read failing", async () => {
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter }))
    const res = await client.request("/auth/session", { headers: { cookie: "authlib.session-token=garbage" } })
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(adapter.writes()).toEqual([])
  })

  it("a garbage JWT cookie reads as no session and is cleared", async () => {
    const client = new Client(config())
    const res = await client.request("/auth/session", { headers: { cookie: "authlib.session-token=eyJhbGciOiJkaXIifQ.x.y.z.w" } })
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie().join()).toMatch(/authlib\.session-token=; Max-Age=0/)
  })

  it("an unknown provider on POST signin is 404 without a write or an error log", async () => {
    const adapter = memoryAdapter()
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ adapter, logger }))
    const res = await client.post("/auth/signin/nobody")
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ error: "UnknownAction", code: "PROVIDER_UNKNOWN" })
    expect(adapter.writes()).toEqual([])
    expect(entries.filter((e) => e.level === "error")).toEqual([])
  })
})
