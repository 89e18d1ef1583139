import { describe, expect, it } from "vitest"
import { applySetCookies, cookieHeader } from "../src/cookies.js"
import { fakeEvent } from "./harness/fake-event.js"

describe("Set-Cookie transfer from core to Qwik", () => {
  it("sets every cookie of several Set-Cookie lines through ev.cookie with its attributes", () => {
    const ev = fakeEvent("http://app.test/", { cookie: "a=1" })
    applySetCookies(ev, [
      "authlib.session-token.0=part0; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000",
      "authlib.session-token.1=part1; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure",
      "authlib.callback-url=http%3A%2F%2Fapp.test%2F; Path=/; Expires=Thu, 01 Jan 2099 00:00:00 GMT; Domain=app.test",
    ])
    expect(ev.recorded.cookies).toEqual([
      { name: "authlib.session-token.0", value: "part0", options: { path: "/", httpOnly: true, sameSite: "lax", maxAge: 2592000 } },
      { name: "authlib.session-token.1", value: "part1", options: { path: "/", httpOnly: true, sameSite: "lax", maxAge: 2592000, secure: true } },
      { name: "authlib.callback-url", value: "http%3A%2F%2Fapp.test%2F", options: { path: "/", domain: "app.test", expires: new Date("2099-01-01T00:00:00Z") } },
    ])
    expect(ev.headers.get("set-cookie")).toBeNull()
  })

  it("keeps values in wire form in the jar, so the next internal call presents exactly what core set", () => {
    const ev = fakeEvent("http://app.test/", { cookie: "keep=x%7Cy; gone=1" })
    applySetCookies(ev, ["fresh=a%7Cb; Path=/", "gone=; Path=/; Max-Age=0"])
    expect(cookieHeader(ev)).toBe("keep=x%7Cy; fresh=a%7Cb")
  })

  it("treats an Expires in the past as a deletion", () => {
    const ev = fakeEvent("http://app.test/", { cookie: "old=1" })
    applySetCookies(ev, ["old=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"])
    expect(cookieHeader(ev)).toBe("")
    expect(ev.recorded.cookies[0]).toMatchObject({ name: "old", value: "" })
  })

  it("sends a line Qwik's cookie API cannot express (Partitioned) verbatim as a header", () => {
    const ev = fakeEvent("http://app.test/")
    const line = "chips=1; Path=/; Secure; SameSite=None; Partitioned"
    applySetCookies(ev, [line])
    expect(ev.recorded.cookies).toEqual([])
    expect(ev.headers.getSetCookie()).toEqual([line])
    expect(cookieHeader(ev)).toBe("chips=1")
  })

  it("ignores a malformed line without a name", () => {
    const ev = fakeEvent("http://app.test/")
    applySetCookies(ev, ["=novalue; Path=/"])
    expect(ev.recorded.cookies).toEqual([])
    expect(cookieHeader(ev)).toBe("")
  })
})
