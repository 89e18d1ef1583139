/** Packaging rules: the `node` condition picks the fast path, and only that path touches Node APIs. */
import { execFileSync } from "node:child_process"
import { readFileSync, readdirSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const NODE_ONLY = new Set(["crypto/node.ts", "index.node.ts"])

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

describe("@authlib/jwt packaging", () => {
  it("keeps Buffer, process.env and node: imports out of every file but the fast path", () => {
    const offenders = sources(join(root, "src"))
      .map((file) => [relative(join(root, "src"), file), readFileSync(file, "utf8")] as const)
      .filter(([name, code]) => !NODE_ONLY.has(name) && /\bBuffer\b|process\.env|from "node:|require\(/.test(code))
      .map(([name]) => name)
    expect(offenders).toEqual([])
  })

  it("maps the node condition to index.node.js and everything else to index.js", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
    expect(pkg.exports["."]).toEqual({
      types: "./dist/index.d.ts",
      node: "./dist/index.node.js",
      default: "./dist/index.js",
    })
    const script = `console.log(import.meta.resolve("@authlib/jwt"))`
    const resolved = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" })
    expect(resolved.trim()).toMatch(/\/dist\/index\.node\.js$/)
  })

  it("exports the same names from both entries", async () => {
    const web = await import("../src/index.js")
    const node = await import("../src/index.node.js")
    expect(Object.keys(node).sort()).toEqual(Object.keys(web).sort())
    expect(node.encode).not.toBe(web.encode)
  })
})
