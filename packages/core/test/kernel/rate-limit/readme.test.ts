/** The README's defaults table is `DEFAULT_RATE_LIMITS` rendered (the failure prints the table to paste). */
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"
import { DEFAULT_RATE_LIMITS } from "../../../src/index.js"

const START = "<!-- rate-limit-table:start (tested against DEFAULT_RATE_LIMITS by test/kernel/rate-limit/readme.test.ts) -->"
const END = "<!-- rate-limit-table:end -->"

it("the README's defaults table matches DEFAULT_RATE_LIMITS", () => {
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
  const table = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim()
  const rows = table.split("\n").slice(2)
  const rendered = Object.entries(DEFAULT_RATE_LIMITS).map(([group, rules]) => {
    const text = rules.length ? rules.map((r) => `${r.limit} per ${r.window} s`).join(", ") : "not limited"
    return [group, text]
  })
  const documented = rows.map((row) => {
    const cells = row.split("|").map((c) => c.trim())
    return [cells[1]!.replace(/`/g, ""), cells[3]!]
  })
  expect(documented, `paste:\n${rendered.map(([g, t]) => `| \`${g}\` | ... | ${t} |`).join("\n")}`).toEqual(rendered)
})
