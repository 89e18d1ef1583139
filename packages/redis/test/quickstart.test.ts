/**
 * The README's quick start, as written: its `<app>/src/auth.ts` block type-checks in a project of its own
 * (strict, `node16`, library checks on) and its config is accepted where a binding takes one
 * (`Auth(request, authConfig)`); its migration command creates the tables on a fresh database (a
 * PGlite folder, through the workspace's `authlib-xata`).
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, expect, it } from "vitest"

const run = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const pkg = join(here, "..")
const readme = readFileSync(join(pkg, "README.md"), "utf8")

/** The fenced block after `<!-- quickstart: <name> -->`. */
function block(name: string): string {
  const marker = `<!-- quickstart: ${name} -->\n`
  const start = readme.indexOf(marker)
  if (start < 0 || !readme.startsWith("```", start + marker.length)) throw new Error(`the README has no quick-start block "${name}"`)
  const body = readme.slice(readme.indexOf("\n", start + marker.length) + 1)
  return body.slice(0, body.indexOf("```"))
}

// Inside this package (no package.json of its own), so the block's imports resolve to what it
// depends on (redis, pg, @types/pg, @authlib/core and @authlib/xata-adapter, built), and
// `@authlib/redis` to this package itself (its `exports`, built).
const project = mkdtempSync(join(here, ".quickstart-"))
const data = mkdtempSync(join(tmpdir(), "authlib-redis-quickstart-"))
afterAll(() => {
  rmSync(project, { recursive: true, force: true })
  rmSync(data, { recursive: true, force: true })
})

it("src/auth.ts type-checks as written, and its config is one Auth() takes", async () => {
  mkdirSync(join(project, "src"))
  writeFileSync(join(project, "src", "auth.ts"), block("redis/src/auth.ts"))
  writeFileSync(join(project, "src", "use.ts"), 'import { Auth } from "@authlib/core"\nimport { authConfig } from "./auth.js"\n\nexport const answer: Promise<Response> = Auth(new Request("http://127.0.0.1:3000/auth/session"), authConfig)\n')
  const tsconfig = { compilerOptions: { target: "ES2022", module: "node16", moduleResolution: "node16", strict: true, types: ["node"], noEmit: true }, include: ["src"] }
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig))
  const tsc = join(pkg, "..", "..", "node_modules", "typescript", "bin", "tsc")
  const result = await run(process.execPath, [tsc, "-p", project], { cwd: project }).then(() => "", (err: { stdout?: string }) => err.stdout ?? String(err))
  expect(result).toBe("")
}, 60_000)

it("the migration step creates the tables on a fresh database, and is a no-op the second time", async () => {
  const command = block("redis/migrate").trim()
  expect(command).toBe('npx authlib-xata migrate --database-url "$DATABASE_URL"')
  const cli = join(pkg, "..", "xata-adapter", "bin", "authlib-xata.js")
  const env = { ...process.env, DATABASE_URL: `file:${data}` }
  const first = await run(process.execPath, [cli, "migrate", "--database-url", env.DATABASE_URL], { env })
  expect(first.stdout).toMatch(/applied/i)
  const again = await run(process.execPath, [cli, "migrate", "--database-url", env.DATABASE_URL], { env })
  expect(again.stdout).not.toEqual(first.stdout)
}, 60_000)
