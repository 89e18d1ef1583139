import { describe, expect, it } from "vitest"
import { Client, config, ORIGIN } from "../../helpers/harness.js"

const NO_STORE = "private, no-cache, no-store"

describe("response headers", () => {
  it("a sign-in redirect carries Location, the device mark and session cookies, and Cache-Control", async () => {
    const res = await new Client(config()).signIn()
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(res.headers.get("cache-control")).toBe(NO_STORE)
    expect(res.headers.getSetCookie()).toHaveLength(2)
    expect(res.headers.getSetCookie()[0]).toMatch(/^authlib\.device-mark=[^;]+; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(res.headers.getSetCookie()[1]).toMatch(/^authlib\.session-token=[^;]+; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/)
  })

  it("with a callback-url cookie, it is the destination and is cleared: both cookies are sent", async () => {
    const client = new Client(config())
    const csrfToken = await client.csrfToken()
    const res = await client.request("/auth/callback/credentials", {
      headers: { cookie: `${[...client.jar].map(([k, v]) => `${k}=${v}`).join("; ")}; authlib.callback-url=${encodeURIComponent(`${ORIGIN}/x`)}` },
      form: { csrfToken, username: "alice", password: "wonderland" },
    })
    const cookies = res.headers.getSetCookie()
    expect(cookies.map((c) => c.split("=")[0])).toEqual(["authlib.device-mark", "authlib.session-token", "authlib.callback-url"])
    expect(cookies[2]).toContain("Max-Age=0")
    expect(res.headers.get("cache-control")).toBe(NO_STORE)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/x`)
  })

  it("X-Auth-Return-Redirect: 1 turns the redirect into 200 JSON, cookies and Cache-Control kept", async () => {
    const client = new Client(config())
    const csrfToken = await client.csrfToken()
    const res = await client.request("/auth/callback/credentials", {
      headers: { "x-auth-return-redirect": "1" },
      form: { csrfToken, username: "alice", password: "wonderland", callbackUrl: "/dash" },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/json")
    expect(res.headers.get("location")).toBeNull()
    expect(res.headers.get("cache-control")).toBe(NO_STORE)
    expect(await res.json()).toEqual({ url: `${ORIGIN}/dash` })
    expect(res.headers.getSetCookie()[1]).toMatch(/^authlib\.session-token=/)
  })

  it("a page is HTML with Cache-Control and its CSRF cookie", async () => {
    const res = await new Client(config()).request("/auth/signin")
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(res.headers.get("cache-control")).toBe(NO_STORE)
    expect(res.headers.getSetCookie()[0]).toMatch(/^authlib\.csrf-token=/)
  })

  it("a route's own headers (405 Allow) come with Cache-Control and the JSON type", async () => {
    const res = await new Client(config()).request("/auth/session", { method: "PATCH" })
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("GET, POST")
    expect(res.headers.get("cache-control")).toBe(NO_STORE)
    expect(res.headers.get("content-type")).toBe("application/json")
  })
})
