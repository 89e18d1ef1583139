/**
 * Core runs on Node, Deno, Bun and edge runtimes: only the `@authlib/core/node` subpath
 * (`src/node/`) may use Node APIs (`node:` imports, `Buffer`, `process`, `require`). Comments and
 * the generated passkey script (a browser bundle held as a string) are not code of core.
 */
import { readFileSync, readdirSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it } from "vitest"

const src = fileURLToPath(new URL("../../src/", import.meta.url))
const NODE_API = /\bprocess\.|\bBuffer\b|["']node:|\brequire\s*\(/
const EXEMPT = new Set(["kernel/pages/passkey-script.ts"])

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
}

it("only src/node/ uses Node APIs", () => {
  const uses = files(src)
    .map((file) => relative(src, file))
    .filter((name) => !name.startsWith("node/") && !EXEMPT.has(name))
    .flatMap((name) =>
      readFileSync(join(src, name), "utf8")
        .split("\n")
        .map((line, i) => [line.trim(), `${name}:${i + 1}`] as const)
        .filter(([line]) => !line.startsWith("*") && !line.startsWith("/*") && !line.startsWith("//") && NODE_API.test(line))
        .map(([, where]) => where),
    )
  expect(uses).toEqual([])
})
