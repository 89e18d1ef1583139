/**
 * The root README's "Try it from a checkout", as written: its pack command in this repository, then
 * its install block in a folder outside it, against a registry in this process that holds only the
 * third-party packages (packed from what pnpm installed here): nothing of ours is on it, so the
 * tarballs alone must do. Then `MemoryAdapter` from `@authlib/adapter-test`'s tarball, with no
 * vitest installed (vitest is an optional peer).
 *
 * The pack runs with `npm_config_ignore_scripts` (no `prepack` build): turbo built the packages
 * before the tests, and rebuilding them here would rewrite `dist/` under tests running beside this
 * one. The README's `pnpm install --frozen-lockfile` is not run either (the workspace is installed).
 */
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cleanEnv } from "@authlib/e2e-kit/clean-env"
import { startRegistry, type Registry } from "@authlib/e2e-kit/registry"
import { installedPackages } from "@authlib/e2e-kit/scratch"
import { thirdPartyClosure } from "@authlib/e2e-kit/third-party"

const run = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, "..", "..", "..")
const readme = readFileSync(join(repo, "README.md"), "utf8")
const PACKAGES = ["jwt", "core", "providers", "qwik", "xata-adapter", "redis", "adapter-test", "saml", "nextjs"]

/** The fenced block after `<!-- checkout: <name> -->` in the root README. */
function checkoutBlock(name: string): string {
  const marker = `<!-- checkout: ${name} -->\n`
  const start = readme.indexOf(marker)
  if (start < 0) throw new Error(`README.md has no ${marker.trim()}`)
  const body = readme.slice(start + marker.length).replace(/^```\w*\n/, "")
  return body.slice(0, body.indexOf("\n```"))
}

let registry: Registry
let scratchRoot: string

/** npm reads its registry, cache and (empty) configs from the environment, so a README line runs as written. */
function npmEnv(): NodeJS.ProcessEnv {
  const [user, global] = [join(scratchRoot, ".user-npmrc"), join(scratchRoot, ".global-npmrc")]
  for (const file of [user, global]) writeFileSync(file, "")
  return cleanEnv({
    npm_config_registry: registry.url,
    npm_config_cache: join(scratchRoot, ".npm-cache"),
    npm_config_userconfig: user,
    npm_config_globalconfig: global,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  })
}

/** Runs `script` with bash in `cwd`; resolves with its output, or with the failure and its output. */
const bash = (script: string, cwd: string, env: NodeJS.ProcessEnv) =>
  run("bash", ["-euo", "pipefail", "-c", script], { cwd, env, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ ok: true, out: stdout + stderr }),
    (err: { stdout?: string; stderr?: string; message: string }) => ({ ok: false, out: `${err.stdout ?? ""}${err.stderr ?? ""}` || err.message }),
  )

beforeAll(async () => {
  registry = await startRegistry()
  scratchRoot = realpathSync(mkdtempSync(join(tmpdir(), "authlib-checkout-")))
  const roots = ["jwt", "core", "providers", "adapter-test"].map((p) => realpathSync(join(repo, "packages", p)))
  for (const { manifest, tarball } of thirdPartyClosure(roots)) registry.add(manifest, tarball)
})

afterAll(async () => {
  await registry?.close()
  if (scratchRoot) rmSync(scratchRoot, { recursive: true, force: true })
})

describe("try it from a checkout (README)", () => {
  it("the pack command writes one tarball per package next to the clone", async () => {
    const pack = checkoutBlock("pack").split("\n").find((line) => line.startsWith("pnpm -r "))
    expect(pack).toBe('pnpm -r --filter "./packages/*" pack --pack-destination ../authlib-tarballs')
    const result = await bash(pack!.replace("../authlib-tarballs", join(scratchRoot, "authlib-tarballs")), repo, cleanEnv({ npm_config_ignore_scripts: "true" }))
    expect(result.ok, result.out).toBe(true)
    const versionOf = (p: string) => (JSON.parse(readFileSync(join(repo, "packages", p, "package.json"), "utf8")) as { version: string }).version
    expect(readdirSync(join(scratchRoot, "authlib-tarballs")).sort()).toEqual(PACKAGES.map((p) => `authlib-${p}-${versionOf(p)}.tgz`).sort())
    // The README names the files with today's version.
    for (const p of PACKAGES) expect(readme).toContain(`authlib-${p}-${versionOf(p)}.tgz`)
  })

  it("without @authlib/jwt's tarball, installing core stops with the 404 the README quotes", async () => {
    const result = await bash("mkdir core-alone && cd core-alone && npm init -y && npm install ../authlib-tarballs/authlib-core-0.0.0.tgz", scratchRoot, npmEnv())
    expect(result.ok).toBe(false)
    expect(result.out).toContain("404")
    expect(result.out).toContain("'@authlib/jwt@^0.0.0' could not be found")
    expect(readme).toContain("`404 ... '@authlib/jwt@^0.0.0' could not be found`")
  })

  it("the install block, as written, installs core, jwt and providers from the tarballs and they run", async () => {
    const result = await bash(checkoutBlock("install"), scratchRoot, npmEnv())
    expect(result.ok, result.out).toBe(true)
    const app = join(scratchRoot, "my-app")
    const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { type: string; dependencies: Record<string, string> }
    expect(manifest.type).toBe("module")
    expect(manifest.dependencies).toEqual({
      "@authlib/core": "file:../authlib-tarballs/authlib-core-0.0.0.tgz",
      "@authlib/jwt": "file:../authlib-tarballs/authlib-jwt-0.0.0.tgz",
      "@authlib/providers": "file:../authlib-tarballs/authlib-providers-0.0.0.tgz",
    })
    expect(readme).toContain('`"@authlib/core": "file:../authlib-tarballs/authlib-core-0.0.0.tgz"`')
    const packages = installedPackages(app)
    expect(packages).toEqual(expect.arrayContaining(["@authlib/core", "@authlib/jwt", "@authlib/providers", "jose", "oauth4webapi"]))
    for (const absent of ["@authlib/qwik", "@authlib/adapter-test", "vitest"]) expect(packages).not.toContain(absent)
    // Nothing of ours came from the registry: it holds none (the 404s are the test before).
    expect(registry.log.filter((line) => line.includes("@authlib") && !line.endsWith(" 404"))).toEqual([])

    writeFileSync(
      join(app, "check.mjs"),
      `import { Auth } from "@authlib/core"
import Credentials from "@authlib/providers/credentials"
const config = { secret: "checkout-secret-0123456789abcdefghijklmnop", trustHost: true, providers: [Credentials({ credentials: { username: {} }, authorize: () => null })] }
const res = await Auth(new Request("http://127.0.0.1:3000/auth/providers"), config)
console.log(res.status, JSON.stringify(Object.keys(await res.json())))
`,
    )
    const { stdout } = await run("node", ["check.mjs"], { cwd: app, env: cleanEnv(), timeout: 30_000 })
    expect(stdout).toBe(`200 ${JSON.stringify(["credentials"])}\n`)
  })

  it("MemoryAdapter from the adapter-test tarball installs and loads with no vitest installed", async () => {
    const line = /`(npm install -D \.\.\/authlib-tarballs\/authlib-adapter-test-[\w.-]+\.tgz)`/.exec(readme)?.[1]
    expect(line).toBe("npm install -D ../authlib-tarballs/authlib-adapter-test-0.0.0.tgz")
    const app = join(scratchRoot, "my-app")
    const result = await bash(line!, app, npmEnv())
    expect(result.ok, result.out).toBe(true)
    expect(existsSync(join(app, "node_modules", "@authlib", "adapter-test"))).toBe(true)
    expect(installedPackages(app).filter((name) => /^(vitest|@vitest\/|vite$)/.test(name))).toEqual([])
    writeFileSync(
      join(app, "memory.mjs"),
      `import { MemoryAdapter } from "@authlib/adapter-test/memory-adapter"
const adapter = MemoryAdapter()
await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: null })
console.log(JSON.stringify(await adapter.getUserByEmail("ada@example.com")))
`,
    )
    const { stdout } = await run("node", ["memory.mjs"], { cwd: app, env: cleanEnv(), timeout: 30_000 })
    expect(JSON.parse(stdout)).toEqual({ id: "u1", name: null, email: "ada@example.com", emailVerified: null, image: null })
  })
})
