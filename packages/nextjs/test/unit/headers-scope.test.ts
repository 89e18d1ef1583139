/**
 * The cookies `auth()` hands core in a server component or action: the `Cookie` header by core's
 * rules, with Next's cookie store for what a server action changed, and never the store's pick
 * between two same-named cookies (the store keeps the last, which a planted cookie can be).
 */
import { describe, expect, it } from "vitest"
import { jarOfRequest, type CookieStore } from "../../src/headers-scope.js"

/** A stand-in for Next's store: `getAll()` with decoded values. */
const store = (cookies: Record<string, string>) => ({ getAll: () => Object.entries(cookies).map(([name, value]) => ({ name, value })) }) as unknown as CookieStore

describe("the jar of a request seen through next/headers", () => {
  it("takes what a server action set or deleted (the store), over the header Next leaves as it came", () => {
    const jar = jarOfRequest("authlib.session-token=old; authlib.csrf-token=a%7Cb", store({ "authlib.session-token": "new", other: "x" }))
    expect(Object.fromEntries(jar)).toEqual({ "authlib.session-token": "new", other: "x" })
  })

  it("keeps the header's first value for a name sent twice, as core does, whatever the store picked", () => {
    const jar = jarOfRequest("authlib.session-token=legit; authlib.session-token=planted", store({ "authlib.session-token": "planted" }))
    expect(jar.get("authlib.session-token")).toBe("legit")
  })

  it("keeps values in wire form (core decodes them)", () => {
    const jar = jarOfRequest("", store({ "authlib.callback-url": "http://app.test/a b" }))
    expect(jar.get("authlib.callback-url")).toBe("http%3A%2F%2Fapp.test%2Fa%20b")
  })
})
