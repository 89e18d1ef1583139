import { describe, expect, it } from "vitest"
import { applyCookies, cookieHeader } from "../src/cookies.js"
import { fakeEvent } from "./harness/fake-event.js"

describe("cookies from core to Qwik (core's cookie objects, never Set-Cookie text)", () => {
  it("sets every cookie through ev.cookie with its attributes, values in core's wire form", () => {
    const ev = fakeEvent("http://app.test/", { cookie: "a=1" })
    applyCookies(ev, [
      { name: "authlib.session-token.0", value: "part0", options: { path: "/", httpOnly: true, sameSite: "lax", maxAge: 2592000 } },
      { name: "authlib.session-token.1", value: "part1", options: { path: "/", httpOnly: true, sameSite: "lax", maxAge: 2592000, secure: true } },
      { name: "authlib.callback-url", value: "http://app.test/", options: { path: "/", domain: "app.test", expires: new Date("2099-01-01T00:00:00Z") } },
    ])
    expect(ev.recorded.cookies).toEqual([
      { name: "authlib.session-token.0", value: "part0", options: { path: "/", httpOnly: true, sameSite: "lax", maxAge: 2592000 } },
      { name: "authlib.session-token.1", value: "part1", options: { path: "/", httpOnly: true, sameSite: "lax", maxAge: 2592000, secure: true } },
      { name: "authlib.callback-url", value: "http://app.test/", options: { path: "/", domain: "app.test", expires: new Date("2099-01-01T00:00:00Z") } },
    ])
    expect(ev.headers.get("set-cookie")).toBeNull()
  })

  it("keeps values in wire form in the jar, so the next internal call presents exactly what core set", () => {
    const ev = fakeEvent("http://app.test/", { cookie: "keep=x%7Cy; gone=1" })
    applyCookies(ev, [
      { name: "fresh", value: "a b", options: { path: "/" } },
      { name: "gone", value: "", options: { path: "/", maxAge: 0 } },
    ])
    expect(cookieHeader(ev)).toBe("keep=x%7Cy; fresh=a%20b")
  })

  it("treats an Expires in the past as a deletion", () => {
    const ev = fakeEvent("http://app.test/", { cookie: "old=1" })
    applyCookies(ev, [{ name: "old", value: "", options: { path: "/", expires: new Date(0) } }])
    expect(cookieHeader(ev)).toBe("")
    expect(ev.recorded.cookies[0]).toMatchObject({ name: "old", value: "" })
  })

  it("sends a cookie Qwik's cookie API cannot express (Partitioned) as a header core serialised", () => {
    const ev = fakeEvent("http://app.test/")
    applyCookies(ev, [{ name: "chips", value: "1", options: { path: "/", secure: true, sameSite: "none", partitioned: true } }])
    expect(ev.recorded.cookies).toEqual([])
    expect(ev.headers.getSetCookie()).toEqual(["chips=1; Path=/; Secure; Partitioned; SameSite=None"])
    expect(cookieHeader(ev)).toBe("chips=1")
  })
})
