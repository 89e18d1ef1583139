/** Packaging rules: the `node` condition picks the fast path, and only that path touches Node APIs. */
import { execFileSync } from "node:child_process"
import { readFileSync, readdirSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const NODE_ONLY = new Set(["crypto/node.ts", "signature/node.ts", "index.node.ts"])

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

/**
 * Node-only APIs, in any spelling: every mention of the identifier `process` (so `process.env`,
 * `process?.env`, `process["env"]`, `globalThis.process`, `const { env } = process`), `Buffer`,
 * `node:` imports (static or dynamic) and `require(`.
 */
const NODE_API = /\bprocess\b|\bBuffer\b|["']node:|\brequire\s*\(/

/** The single permitted env read (`WEBAUTH_URL` for the `secureCookie` default, spec 2.4; `AUTH_SECRET` when `getToken` has no secret, spec 5.4). */
const ALLOWED = {
  file: "get-token.ts",
  line: "const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env",
}

/** `file:line` of every line using a Node-only API outside the fast path and the allowed env read. */
function nodeApiUses(): string[] {
  return sources(join(root, "src")).flatMap((file) => {
    const name = relative(join(root, "src"), file)
    if (NODE_ONLY.has(name)) return []
    return readFileSync(file, "utf8")
      .split("\n")
      .map((line, i) => [line.trim(), `${name}:${i + 1}`] as const)
      .filter(([line]) => NODE_API.test(line) && !(name === ALLOWED.file && line === ALLOWED.line))
      .map(([, where]) => where)
  })
}

describe("@authlib/jwt packaging", () => {
  it("keeps Buffer, process and node: imports out of every file but the fast path and the one env read", () => {
    expect(nodeApiUses()).toEqual([])
    const allowed = readFileSync(join(root, "src", ALLOWED.file), "utf8").split("\n").map((line) => line.trim())
    expect(allowed.filter((line) => line === ALLOWED.line)).toHaveLength(1)
  })

  it.each([
    "process.env.X",
    "process?.env",
    'process["env"]',
    "globalThis.process",
    'globalThis["process"]',
    "const { env } = process",
    "Buffer.from(x)",
    'import { x } from "node:crypto"',
    'await import("node:fs")',
    'require("fs")',
  ])("the guard catches %s", (code) => {
    expect(NODE_API.test(code)).toBe(true)
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
