/**
 * The code catalogue against the classes and the README: every error class of core has an entry,
 * every entry a class, no code is listed twice for one type, and the README's error table is the
 * catalogue rendered (the failure message prints the table to paste).
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import * as core from "../../../src/index.js"
import { APP_DEFINED_CODES, AuthError, ERROR_CODES } from "../../../src/index.js"

const README = new URL("../../../README.md", import.meta.url)
const START = "<!-- error-table:start (tested against ERROR_CODES by test/kernel/errors/catalogue.test.ts) -->"
const END = "<!-- error-table:end -->"

const classes = Object.entries(core).filter(
  ([name, v]) => typeof v === "function" && (v as { prototype?: unknown }).prototype instanceof AuthError && name !== "CataloguedError",
) as Array<[string, typeof AuthError]>

/** The README table as the catalogue says it must read. */
function renderTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([type, codes]) => {
    const Cls = classes.find(([name]) => name === type)?.[1]
    const listed = (codes as readonly string[]).map((c) => `\`${c}\``)
    const own = (APP_DEFINED_CODES as Record<string, string>)[type]
    const all = [...listed, ...(own ? [own] : [])].join(", ") || "(none)"
    return `| \`${type}\` | ${Cls?.clientSafe ? "yes" : "no"} | ${all} |`
  })
  return ["| Type | Client-safe | Codes |", "| --- | --- | --- |", ...rows].join("\n")
}

describe("the code catalogue (ERROR_CODES)", () => {
  it("has an entry for every error class core exports, and a class for every entry", () => {
    expect(Object.keys(ERROR_CODES).sort()).toEqual(classes.map(([name]) => name).sort())
  })

  it("lists each code once per type, in the code shape (upper snake case, CredentialsSignin's default aside)", () => {
    for (const [type, codes] of Object.entries(ERROR_CODES)) {
      expect(new Set(codes).size, type).toBe(codes.length)
      for (const code of codes) if (type !== "CredentialsSignin") expect(code, type).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/)
    }
    expect(Object.keys(APP_DEFINED_CODES).every((type) => type in ERROR_CODES)).toBe(true)
  })

  it("types the classes' codes: a code outside the catalogue does not compile", () => {
    // @ts-expect-error "NOT_A_CODE" is not in ERROR_CODES.Configuration
    const err = new core.Configuration("x", { code: "NOT_A_CODE" })
    const ok = new core.OAuthCallbackError("x", { code: "TOKEN_RESPONSE_ERROR" })
    expect([err.code, ok.code]).toEqual(["NOT_A_CODE", "TOKEN_RESPONSE_ERROR"])
    expect(ERROR_CODES.InvalidCheck).toContain("CHECK_PKCE_COOKIE_MISSING")
    // The catalogue's types are exactly the discriminants of AnyAuthError.
    type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
    const same: Same<core.ErrorType, core.CataloguedType> = true
    expect(same).toBe(true)
  })

  it("is the README's error table", () => {
    const text = readFileSync(README, "utf8")
    const table = text.slice(text.indexOf(START) + START.length, text.indexOf(END)).trim()
    expect(text.includes(START) && text.includes(END), "README markers").toBe(true)
    expect(table, `README error table out of date; paste:\n${renderTable()}\n`).toBe(renderTable())
  })
})
