/** The cookie jar keeps and sends cookies the way a browser does where auth depends on it. */
import { describe, expect, it } from "vitest"
import { CookieJar } from "../src/cookie-jar.js"

const APP = "https://app.example.com"

describe("storing and deleting", () => {
  it("keeps name=value as sent (not decoded) and replaces a cookie set again for the same name, domain and path", () => {
    const jar = new CookieJar(APP)
    jar.store(["a=1%20x; Path=/", "b=2; Path=/"])
    jar.store("a=3; Path=/")
    expect(jar.header()).toBe("a=3; b=2")
    expect([...jar]).toEqual([["a", "3"], ["b", "2"]])
  })

  it("deletes on Max-Age=0, a negative Max-Age or an Expires in the past; Max-Age wins over Expires", () => {
    const jar = new CookieJar(APP)
    jar.store(["a=1; Path=/", "b=1; Path=/", "c=1; Path=/", "d=1; Path=/"])
    jar.store(["a=; Path=/; Max-Age=0", "b=; Path=/; Max-Age=-1", "c=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"])
    jar.store("d=2; Path=/; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT")
    expect(jar.names()).toEqual(["d"])
    expect(jar.get("d")).toBe("2")
  })

  it("a deletion for another path leaves the cookie on its own path", () => {
    const jar = new CookieJar(APP)
    jar.store("a=1; Path=/auth")
    jar.store("a=; Path=/; Max-Age=0")
    expect(jar.header(`${APP}/auth/session`)).toBe("a=1")
  })

  it("ignores a Domain the host does not belong to, and a Secure cookie from plain http on a public host", () => {
    const jar = new CookieJar()
    jar.store(["x=1; Domain=evil.example; Path=/", "y=1; Domain=example.com; Path=/"], `${APP}/`)
    jar.store("s=1; Secure; Path=/", "http://app.example.com/")
    expect(jar.names()).toEqual(["y"])
  })

  it("needs Secure for __Secure- names, and Secure, no Domain and Path=/ for __Host- names", () => {
    const jar = new CookieJar(APP)
    jar.store([
      "__Secure-a=1; Path=/",
      "__Secure-b=1; Path=/; Secure",
      "__Host-c=1; Path=/; Secure; Domain=app.example.com",
      "__Host-d=1; Path=/auth; Secure",
      "__Host-e=1; Path=/",
      "__Host-f=1; Path=/; Secure",
      "__host-g=1; Path=/",
    ])
    expect(jar.names()).toEqual(["__Secure-b", "__Host-f"])
  })
})

describe("sending", () => {
  it("sends only the cookies whose domain, path and Secure match the request URL, longest path first", () => {
    const jar = new CookieJar()
    jar.store(["root=1; Path=/", "auth=1; Path=/auth", "sec=1; Path=/; Secure", "wide=1; Domain=example.com; Path=/", "host=1"], `${APP}/auth/signin`)
    // `host` has no Path: it gets the directory of /auth/signin, /auth.
    expect(jar.header(`${APP}/auth/session`)).toBe("auth=1; host=1; root=1; sec=1; wide=1")
    expect(jar.header(`${APP}/authx`)).toBe("root=1; sec=1; wide=1")
    expect(jar.header("http://app.example.com/auth/x")).toBe("auth=1; host=1; root=1; wide=1")
    expect(jar.header("https://api.example.com/")).toBe("wide=1")
    expect(jar.header("https://other.example/")).toBe("")
  })

  it("treats loopback as a secure origin, as browsers do", () => {
    const jar = new CookieJar("http://localhost:3000")
    jar.store("__Secure-s=1; Path=/; Secure")
    expect(jar.header()).toBe("__Secure-s=1")
    expect(jar.header("http://127.0.0.1:3000/")).toBe("")
  })

  it("keeps sending a cookie after its Max-Age has passed: refusing an old cookie is the server's job", () => {
    const jar = new CookieJar(APP)
    jar.store("brief=1; Path=/; Max-Age=60")
    const now = Date.now
    try {
      Date.now = () => now() + 61_000
      expect(jar.header()).toBe("brief=1")
      expect(jar.all()[0]!.expiresAt).toBeLessThan(Date.now())
    } finally {
      Date.now = now
    }
  })

  it("keep() reads a fetch response's Set-Cookie lines and its URL; apply() sets the Cookie header", () => {
    const jar = new CookieJar(APP)
    const res = new Response(null, { headers: [["set-cookie", "a=1; Path=/"], ["set-cookie", "b=2; Path=/x"]] })
    expect(jar.keep(res)).toBe(res)
    expect(jar.apply(new Headers(), `${APP}/x/y`).get("cookie")).toBe("b=2; a=1")
    expect(jar.apply(new Headers(), "https://elsewhere.example/").has("cookie")).toBe(false)
  })
})

describe("the Map view", () => {
  it("plants, reads, deletes and clears by name", () => {
    const jar = new CookieJar("http://localhost:3000")
    jar.set("planted", "v").set("other", "w")
    expect(jar.size).toBe(2)
    expect(jar.get("planted")).toBe("v")
    expect(jar.header("http://localhost:3000/any/path")).toBe("planted=v; other=w")
    expect(jar.delete("planted")).toBe(true)
    expect(jar.delete("planted")).toBe(false)
    expect([...jar.keys()]).toEqual(["other"])
    jar.clear()
    expect(jar.size).toBe(0)
  })

  it("set() on a stored name changes its value and keeps its path and flags", () => {
    const jar = new CookieJar(APP)
    jar.store("check=1; Path=/auth/callback; Secure; HttpOnly")
    jar.set("check", "tampered")
    expect(jar.all()).toMatchObject([{ name: "check", value: "tampered", path: "/auth/callback", secure: true, httpOnly: true }])
    expect(jar.header(`${APP}/`)).toBe("")
  })

  it("a jar without a URL refuses calls that need one", () => {
    expect(() => new CookieJar().set("a", "1")).toThrow(/no URL/)
    expect(() => new CookieJar().header()).toThrow(/no URL/)
  })
})
