/**
 * The one shape of server functions (`src/kernel/run/server-function.ts`) and their typed map
 * (`src/server-functions.ts`): the map holds every server function the root entry exports, each
 * one's `result` answers what its direct call does with the cookies as objects, and
 * `callServerFunction` (the bindings' runner) sets cookies, then redirects, then resolves the value,
 * and sets an error's cookies before the error reaches the caller as thrown.
 */
import { readFileSync } from "node:fs"
import setCookieParser from "set-cookie-parser"
import { describe, expect, it } from "vitest"
import * as root from "../src/index.js"
import { callServerFunction, errorCookies, serverFunctions } from "../src/internal.js"
import { serializeCookie, type Cookie } from "../src/kernel/cookies/serialize.js"
import { withErrorCookies, type ServerFunction, type ServerResult } from "../src/kernel/run/server-function.js"
import { alice, Client, config } from "./helpers/harness.js"
import { memoryAdapter } from "./helpers/memory-adapter.js"

const cookie = (name: string, value: string): Cookie => ({ name, value, options: { path: "/", httpOnly: true, sameSite: "lax" } })

/** A server function of the one shape whose work answers `outcome` (or throws it), recording the binding's calls. */
function fake<T>(outcome: ServerResult<T> | Error): ServerFunction<[], T> {
  const result = async () => {
    if (outcome instanceof Error) throw outcome
    return outcome
  }
  return Object.assign(async () => (await result()).value, { result })
}

function recordingSink() {
  const calls: string[] = []
  return { calls, sink: { setCookies: (cookies: Cookie[]) => void calls.push(`cookies ${cookies.map((c) => c.name).join(",")}`), redirect: (url: string) => void calls.push(`redirect ${url}`) } }
}

describe("serverFunctions, the typed map", () => {
  it("is exported by the root one function a line, each under a TSDoc line of its own (editors show it on hover through the emitted types)", () => {
    const lines = readFileSync(new URL("../src/index.ts", import.meta.url), "utf8").split("\n")
    const undocumented = Object.keys(serverFunctions).filter((name) => {
      const at = lines.findIndex((line) => line.startsWith(`export const ${name} = `))
      return at < 1 || !/^\/\*\* .+ \*\/$/.test(lines[at - 1]!)
    })
    expect(undocumented).toEqual([])
  })

  it("holds every server function the root exports (each with its one-shape result), under its root name, and nothing else", () => {
    const withResult = Object.entries(root).filter(([, value]) => typeof value === "function" && typeof (value as { result?: unknown }).result === "function")
    expect(withResult.map(([name]) => name).sort()).toEqual(Object.keys(serverFunctions).sort())
    for (const [name, fn] of withResult) expect([name, serverFunctions[name as keyof typeof serverFunctions]]).toEqual([name, fn])
    expect(Object.isFrozen(serverFunctions)).toBe(true)
  })

  it("a function's result answers what its direct call does, the cookies as objects (revokeOtherSessions, JWT with session epochs)", async () => {
    const adapter = memoryAdapter()
    adapter.users.set(alice.id!, { id: alice.id!, name: alice.name!, email: alice.email!, emailVerified: null, image: null })
    const cfg = config({ adapter, session: { strategy: "jwt" } })
    const client = new Client(cfg)
    expect((await client.signIn()).status).toBe(302)
    const request = (cookieHeader: string) => new Request("http://localhost:3000/account", { headers: { cookie: cookieHeader } })
    const result = await serverFunctions.revokeOtherSessions.result(request([...client.jar].map(([k, v]) => `${k}=${v}`).join("; ")), cfg)
    expect(result.value).toBeNull()
    expect(result.cookies.map((c) => c.name)).toEqual(["authlib.session-token"])
    expect(result.redirect).toBeUndefined()
    // The session the result re-issued (the old one ended with the others) asks again, directly.
    const direct = await root.revokeOtherSessions(request(serializeCookie(result.cookies[0]!).split(";")[0]!), cfg)
    expect(direct.revoked).toBeNull()
    expect(setCookieParser.parse(direct.setCookie).map((c) => c.name)).toEqual(["authlib.session-token"])
    expect(serializeCookie(result.cookies[0]!).split(";").slice(1)).toEqual(direct.setCookie[0]!.split(";").slice(1))
  })
})

describe("callServerFunction, the bindings' runner", () => {
  it("sets the cookies, then redirects, then resolves the value", async () => {
    const { calls, sink } = recordingSink()
    const value = await callServerFunction(fake({ value: "done", cookies: [cookie("a", "1"), cookie("b", "2")], redirect: "http://localhost/next" }), new Request("http://localhost/"), config(), [], sink)
    expect(value).toBe("done")
    expect(calls).toEqual(["cookies a,b", "redirect http://localhost/next"])
  })

  it("with no cookies and no redirect, asks nothing of the binding", async () => {
    const { calls, sink } = recordingSink()
    expect(await callServerFunction(fake({ value: [1, 2], cookies: [] }), new Request("http://localhost/"), config(), [], sink)).toEqual([1, 2])
    expect(calls).toEqual([])
  })

  it("a typed error reaches the caller as thrown (same object, type and code), its cookies set first; an error without cookies sets none", async () => {
    const refused = withErrorCookies(new root.RefreshTokenError("refused", { code: "INVALID_GRANT" }), [cookie("authlib.session-token", "marked")])
    expect(errorCookies(refused).map((c) => c.value)).toEqual(["marked"])
    const first = recordingSink()
    const thrown = await callServerFunction(fake<never>(refused), new Request("http://localhost/"), config(), [], first.sink).catch((e: unknown) => e)
    expect(thrown).toBe(refused)
    expect(thrown).toMatchObject({ type: "RefreshTokenError", code: "INVALID_GRANT" })
    expect(first.calls).toEqual(["cookies authlib.session-token"])
    const plain = new root.SessionRequired("Sign in", { code: "SESSION_MISSING" })
    const second = recordingSink()
    expect(await callServerFunction(fake<never>(plain), new Request("http://localhost/"), config(), [], second.sink).catch((e: unknown) => e)).toBe(plain)
    expect(second.calls).toEqual([])
    expect(errorCookies(plain)).toEqual([])
  })
})
