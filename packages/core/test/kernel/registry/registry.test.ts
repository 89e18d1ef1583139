/**
 * The registry is the one list of routes: the README's route table and its list of JSON routes are
 * checked against it, every POST is CSRF-checked by the kernel or says where its check lives, and
 * two capabilities cannot claim one action or provider type.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { REGISTRY } from "../../../src/registry.js"
import { assembleRegistry } from "../../../src/kernel/registry/assemble.js"
import type { Capability, SignInTypeDeclaration } from "../../../src/kernel/types/capability.js"
import { buttonPart } from "../../../src/kernel/pages/index.js"

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")

function routeTable(): Map<string, Set<string>> {
  const section = readme.slice(readme.indexOf("### Routes and status codes"), readme.indexOf("### Theme of the built-in pages"))
  const rows = section.split("\n").filter((line) => line.startsWith("| `"))
  const table = new Map<string, Set<string>>()
  for (const row of rows) {
    const [routes, methods] = row.split("|").slice(1, 3).map((cell) => cell.trim())
    for (const route of routes!.matchAll(/`([a-z-]+)(?:\/:provider)?`/g)) {
      const set = table.get(route[1]!) ?? new Set()
      for (const method of methods!.split(",").map((m) => m.trim())) set.add(method)
      table.set(route[1]!, set)
    }
  }
  return table
}

describe("the registry", () => {
  it("has exactly the routes and methods of the README's route table", () => {
    const fromRegistry = new Map([...REGISTRY.actions].map((action) => [action, new Set(REGISTRY.methods(action))]))
    expect(routeTable()).toEqual(fromRegistry)
  })

  it("names in the README's route table every action a POST declares (the body's `action`)", () => {
    const rows = readme.split("\n").filter((line) => /^\| `[a-z-]+(?:\/:provider)?` \| POST/.test(line))
    const declared = [...REGISTRY.actions].filter((action) => REGISTRY.actionsOf(action, "POST").length > 0)
    expect(declared.sort()).toEqual(["organizations", "passkeys", "sessions", "two-factor"])
    for (const action of declared) {
      const row = rows.find((line) => line.startsWith(`| \`${action}\` |`))
      expect(row, action).toBeDefined()
      const missing = REGISTRY.actionsOf(action, "POST").filter((name) => !row!.includes(`\`${name}\``))
      expect(missing, action).toEqual([])
    }
  })

  it("lists in the README exactly the routes that answer errors as JSON", () => {
    const listed = readme.match(/Errors on JSON routes \(([^)]*)\)/)![1]!.match(/`([a-z-]+)`/g)!.map((s) => s.slice(1, -1))
    const json = [...REGISTRY.actions].filter((action) => REGISTRY.route(action)!.answers === "json")
    expect(listed.sort()).toEqual(json.sort())
  })

  it("has the kernel check CSRF and Origin on every POST, or names where the check lives", () => {
    for (const action of REGISTRY.actions) {
      const post = REGISTRY.route(action)!.POST
      if (post) expect(post.csrf || typeof post.csrfBy === "string", action).toBe(true)
    }
  })

  it("refuses two capabilities declaring one action, one provider type, or an unchecked POST", () => {
    const handler = async () => ({})
    const a: Capability = { name: "a", routes: [{ action: "x", answers: "json", GET: { handler, csrf: false } }] }
    expect(() => assembleRegistry([a, { ...a, name: "b" }])).toThrow(/action "x"/)
    const type: SignInTypeDeclaration = {
      flow: { callback: async () => ({ response: {} }), callbackMethods: ["GET"] as const, callbackCsrf: false },
      firstFactor: () => ({ amr: [], factors: 1 }),
      users: { owner: "adapter", joins: "none" },
      page: (provider, urls) => buttonPart(provider, urls.signinUrl, false),
    }
    expect(() => assembleRegistry([{ name: "c", signInTypes: { email: type } }, { name: "d", signInTypes: { email: type } }])).toThrow(/sign-in type "email"/)
    expect(() => assembleRegistry([{ name: "e", routes: [{ action: "y", answers: "json", POST: { handler, csrf: false } }] }])).toThrow(/CSRF/)
  })

  it("refuses a capability without the capabilities it requires, naming both; the full registry has every one", () => {
    const byName = new Map(REGISTRY.capabilities.map((c) => [c.name, c]))
    expect(byName.get("two-factor")?.requires).toEqual(["webauthn"])
    expect(byName.get("provider-tokens")?.requires).toEqual(["oauth"])
    const withoutWebauthn = REGISTRY.capabilities.filter((c) => c.name !== "webauthn")
    expect(() => assembleRegistry(withoutWebauthn)).toThrow(/capability "passkey-management" requires capability "webauthn"/)
    expect(() => assembleRegistry(REGISTRY.capabilities.filter((c) => c.name !== "oauth"))).toThrow(/"provider-tokens" requires capability "oauth"/)
    expect(() => assembleRegistry(REGISTRY.capabilities)).not.toThrow()
  })
})
