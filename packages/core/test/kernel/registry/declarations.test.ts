/**
 * A capability declares what it adds to the kernel's tables (its option, rate-limit groups, error
 * types and codes, adapter port, page, step-up and passkey hooks) and the registry merges them: the
 * kernel's source names none of it, and two claims to one name are refused.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { REGISTRY } from "../../../src/registry.js"
import { Auth } from "../../../src/index.js"
import { config, ORIGIN } from "../../helpers/harness.js"
import { assembleRegistry } from "../../../src/kernel/registry/assemble.js"
import type { Capability } from "../../../src/kernel/types/capability.js"

const kernel = join(import.meta.dirname, "../../../src/kernel")
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })

/** What `capability` adds by name: its option key, rate-limit sections, error types of its own, ports. */
function namesOf(capability: Capability): string[] {
  // A group by its full name: a section ("email", "oauth") is also a word the kernel may use for other things.
  const sections = Object.keys(capability.rateLimits ?? {})
  const types = (capability.errors ?? []).map((e) => e.type).filter((type) => !(type in { Configuration: 1 }))
  return [...new Set([...(capability.options ? [capability.options.key] : []), ...sections, ...types, ...Object.keys(capability.ports ?? {})])]
}

describe("capability declarations", () => {
  it("the kernel's source (comments included) names nothing a capability declares for itself", () => {
    const declared = REGISTRY.capabilities.flatMap(namesOf)
    expect(declared).toContain("twoFactor")
    const found = files(kernel).flatMap((path) => {
      const text = readFileSync(path, "utf8").toLowerCase()
      // As a word: a short name ("sso") may sit inside another word ("successor").
      return declared.filter((name) => new RegExp(`\\b${name.toLowerCase()}\\b`).test(text)).map((name) => `${relative(kernel, path)}: ${name}`)
    })
    expect(found).toEqual([])
  })

  it("merges a capability's groups, codes, policy, port and page into the kernel's tables", () => {
    const handler = async () => ({})
    const extra = {
      name: "extra",
      routes: [{ action: "extra", answers: "json", page: "extraPage", GET: { handler, csrf: false } }],
      rateLimits: { "extra.perUser": [{ limit: 2, window: 60 }] },
      errors: [
        { type: "ExtraError", codes: ["EXTRA_REFUSED"], policy: { status: 409, codeInJson: true } },
        { type: "Configuration", codes: ["EXTRA_UNREADABLE"] },
      ],
      ports: { extraStore: ["getExtra", "setExtra"] },
    } as unknown as Capability
    const registry = assembleRegistry([extra])
    const declaredByCapabilities = new Set(REGISTRY.capabilities.flatMap((c) => Object.keys(c.rateLimits ?? {})))
    expect(Object.keys(registry.rateLimits)).toEqual([...Object.keys(REGISTRY.rateLimits).filter((g) => !declaredByCapabilities.has(g)), "extra.perUser"])
    expect(Object.keys(registry.rateLimits)).toEqual(["csrf.perClient", "session.perClient", "extra.perUser"])
    expect(registry.rateLimits["extra.perUser" as never]).toEqual([{ limit: 2, window: 60 }])
    // A capability's type goes in the catalogue's alphabetical place; a kernel type gains its codes at the end.
    const types = Object.keys(registry.errorCodes)
    expect(types.slice(types.indexOf("ExtraError") - 1, types.indexOf("ExtraError") + 2)).toEqual(["ExperimentalFeatureNotEnabled", "ExtraError", "InvalidCallbackUrl"])
    expect(registry.errorCodes.Configuration.at(-1)).toBe("EXTRA_UNREADABLE")
    expect(registry.policyOf("ExtraError")).toEqual({ status: 409, codeInJson: true })
    expect(registry.policyOf("Configuration")).toEqual({ status: 500 })
    expect(registry.ports).toEqual({ extraStore: ["getExtra", "setExtra"] })
    expect(registry.portMethods).toEqual(["getExtra", "setExtra"])
    expect(registry.page("extraPage")).toBe("extra")
  })

  it("declares the management errors of one capability in that capability, where the catalogue listed them", () => {
    const owners = Object.fromEntries(REGISTRY.capabilities.flatMap((c) => (c.errors ?? []).map((e) => [e.type, c.name])))
    // So the first test also keeps their names out of the kernel's source.
    expect(owners).toMatchObject({ PasskeyManagementError: "passkey-management", AccountManagementError: "linked-accounts" })
    const types = Object.keys(REGISTRY.errorCodes)
    expect(types[0]).toBe("AccountManagementError")
    expect(types.slice(types.indexOf("OAuthSignInError"), types.indexOf("OAuthSignInError") + 4)).toEqual(["OAuthSignInError", "OrganizationError", "PasskeyManagementError", "RateLimited"])
    expect(REGISTRY.policyOf("PasskeyManagementError")).toEqual({ codeInJson: true })
    expect(REGISTRY.policyOf("AccountManagementError")).toEqual({})
  })

  it("declares a sign-in type's error in its capability (codes, policy and page text in one declaration), where the catalogue listed it, and the pages show its text", async () => {
    const owner = REGISTRY.capabilities.find((c) => (c.errors ?? []).some((e) => e.type === "WebAuthnVerificationError"))
    expect(owner?.name).toBe("webauthn")
    const types = Object.keys(REGISTRY.errorCodes)
    expect(types.slice(types.indexOf("WebAuthnVerificationError"), types.indexOf("WebAuthnVerificationError") + 2)).toEqual(["WebAuthnVerificationError", "Verification"])
    expect(REGISTRY.policyOf("WebAuthnVerificationError")).toEqual({ codeInJson: true, codeInRedirect: true })
    const res = await Auth(new Request(`${ORIGIN}/auth/error?error=WebAuthnVerificationError`), config())
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain("Passkey not accepted")
    expect(html).toContain("The passkey could not be used to sign in.")
  })

  it("has each sign-in type's rate-limit groups declared by its capability, the kernel keeping only its own (csrf, session)", () => {
    const owners = Object.fromEntries(REGISTRY.capabilities.flatMap((c) => Object.keys(c.rateLimits ?? {}).map((group) => [group, c.name])))
    expect(owners).toEqual({
      "oauth.perClient": "oauth",
      "email.perAddress": "email",
      "email.perClient": "email",
      "credentials.perIdentifier": "credentials",
      "credentials.perClient": "credentials",
      "passkey.perClient": "webauthn",
      "twoFactor.perUser": "two-factor",
      "twoFactor.perSignIn": "two-factor",
      "organizations.create": "organizations",
      "organizations.invite": "organizations",
      "sso.perClient": "sso",
    })
    expect(Object.keys(REGISTRY.rateLimits).filter((group) => !(group in owners))).toEqual(["csrf.perClient", "session.perClient"])
  })

  it("lists a capability's type just before the type its declaration names", () => {
    const extra = { name: "extra", errors: [{ type: "ZetaError", codes: ["ZETA_REFUSED"], before: "AccessDenied" }] } as unknown as Capability
    const types = Object.keys(assembleRegistry([extra]).errorCodes)
    expect(types.slice(0, 2)).toEqual(["ZetaError", "AccessDenied"])
  })

  it("refuses a second claim to a rate-limit group, error type, port or page", () => {
    const handler = async () => ({})
    const claims = [
      { rateLimits: { "csrf.perClient": [] } },
      { errors: [{ type: "RateLimited", codes: [], policy: {} }] },
      { errors: [{ type: "TwoFactorError", codes: ["X"] }] },
      { ports: { twoFactor: ["getTwoFactor"] } },
      { routes: [{ action: "other", answers: "json", page: "twoFactor", GET: { handler, csrf: false } }] },
    ]
    for (const claim of claims) {
      const capability = { name: "late", ...claim } as unknown as Capability
      expect(() => assembleRegistry([...REGISTRY.capabilities, capability]), JSON.stringify(claim)).toThrow(/declares/)
    }
  })
})
