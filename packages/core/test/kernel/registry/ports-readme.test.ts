/** The README's table of adapter ports is ADAPTER_PORTS, port by port and method by method. */
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"
import { ADAPTER_PORTS } from "../../../src/index.js"

it("the README's ports table lists exactly ADAPTER_PORTS", () => {
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
  const table = readme.slice(readme.indexOf("<!-- ports-table:start"), readme.indexOf("<!-- ports-table:end"))
  const rows = table.split("\n").filter((line) => line.startsWith("| `"))
  const documented = Object.fromEntries(rows.map((row) => {
    const [port, methods] = row.split("|").slice(1, 3).map((cell) => [...cell.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]))
    return [port![0], methods]
  }))
  expect(documented).toEqual(Object.fromEntries(Object.entries(ADAPTER_PORTS).map(([port, methods]) => [port, [...methods]])))
})
