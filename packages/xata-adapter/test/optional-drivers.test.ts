/**
 * "Install only the driver you use": the main entry must not load @xata.io/client, PGlite or pg at
 * run time. Walks the static (non-type) imports reachable from src/index.ts.
 */
import { readFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, test } from "vitest"

const DRIVERS = ["@xata.io/client", "@electric-sql/pglite", "pg"]
const IMPORT = /^\s*(import|export)\s+(?!type\b)(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm

function runtimeImports(entry: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>()
  if (seen.has(entry)) return packages
  seen.add(entry)
  for (const [, , specifier] of readFileSync(entry, "utf8").matchAll(IMPORT)) {
    if (!specifier) continue
    if (!specifier.startsWith(".")) packages.add(specifier)
    else for (const p of runtimeImports(resolve(dirname(entry), specifier.replace(/\.js$/, ".ts")), seen)) packages.add(p)
  }
  return packages
}

const src = fileURLToPath(new URL("../src/", import.meta.url))

test("the main entry imports no database driver at run time", () => {
  const packages = runtimeImports(`${src}index.ts`)
  expect(packages.has("@authlib/core")).toBe(true)
  for (const driver of DRIVERS) expect(packages.has(driver), driver).toBe(false)
})

test("only the xata-client entry imports @xata.io/client at run time", () => {
  expect(runtimeImports(`${src}xata-client.ts`).has("@xata.io/client")).toBe(true)
})

test("the CLI loads drivers only on demand (dynamic import)", () => {
  const packages = runtimeImports(`${src}cli.ts`)
  for (const driver of DRIVERS) expect(packages.has(driver), driver).toBe(false)
})
