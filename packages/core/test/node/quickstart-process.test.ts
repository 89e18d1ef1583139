/**
 * The root README's Node quick start, run the way a new user runs it: its server block in a Node
 * process of its own (bundled from this package's sources by esbuild), with an incomplete
 * environment. `GET /` calls `getSession` in the app callback; a broken configuration must answer a
 * 500 there (no stack in the body), log the clear line the routes log, and leave the process up.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "@authlib/e2e-kit/free-port"
import { build } from "esbuild"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const here = dirname(fileURLToPath(import.meta.url))
const core = join(here, "..", "..")
const repo = join(core, "..", "..")
const providers = join(repo, "packages", "providers", "src")

/** The fenced block after `<!-- quickstart: <name> -->` in the root README. */
function readmeBlock(name: string): string {
  const readme = readFileSync(join(repo, "README.md"), "utf8")
  const marker = `<!-- quickstart: ${name} -->\n`
  const start = readme.indexOf(marker)
  if (start < 0) throw new Error(`the README has no quick-start block "${name}"`)
  const body = readme.slice(readme.indexOf("\n", start + marker.length) + 1)
  return body.slice(0, body.indexOf("```"))
}

// The package names the README imports, served from this repository's sources.
const SOURCES: Record<string, string> = {
  "@authlib/core": join(core, "src", "index.ts"),
  "@authlib/core/node": join(core, "src", "node", "index.ts"),
  "@authlib/providers/oidc": join(providers, "oidc.ts"),
}

let dir: string
let script: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "authlib-quickstart-"))
  script = join(dir, "server.mjs")
  await build({
    // As written: it listens on PORT, which each run sets to a free port.
    stdin: { contents: readmeBlock("node-oidc/src/server.ts"), loader: "ts", resolveDir: core },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: script,
    logLevel: "silent",
    // Some dependencies are CommonJS: give the ESM bundle a `require` for them.
    banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
    plugins: [{
      name: "workspace-sources",
      setup(b) {
        b.onResolve({ filter: /^@authlib\/(core|core\/node|providers\/oidc)$/ }, (args) => ({ path: SOURCES[args.path]! }))
      },
    }],
  })
})

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Starts the quick start on a free port (`PORT`) with exactly `env` (and PATH), once it prints its line. */
async function start(env: Record<string, string>) {
  const port = await freePort()
  const child: ChildProcess = spawn("node", [script], { cwd: dir, env: { PATH: process.env.PATH!, PORT: String(port), ...env } as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] })
  const output: string[] = []
  child.stdout!.on("data", (c: Buffer) => output.push(c.toString()))
  child.stderr!.on("data", (c: Buffer) => output.push(c.toString()))
  let exited: number | null | undefined
  child.once("exit", (code) => (exited = code))
  await expect.poll(() => output.join(""), { timeout: 20_000 }).toContain(`listening on http://127.0.0.1:${port}/`)
  return { child, origin: `http://127.0.0.1:${port}`, output: () => output.join(""), exited: () => exited }
}

describe("the README's node:http quick start with an incomplete environment", () => {
  it("without AUTH_SECRET and WEBAUTH_URL: GET / answers a 500 naming no stack, logs what is missing, and the process serves the next request", async () => {
    const server = await start({ AUTH_OIDC_ID: "id", AUTH_OIDC_SECRET: "secret", AUTH_OIDC_ISSUER: "https://sso.example.com" })
    try {
      const { origin } = server
      const first = await fetch(`${origin}/`)
      expect(first.status).toBe(500)
      expect(await first.json()).toEqual({ error: "Configuration" })
      const again = await fetch(`${origin}/`)
      expect(again.status).toBe(500)
      expect((await fetch(`${origin}/auth/session`)).status).toBe(500)
      expect(server.exited()).toBeUndefined()
      const log = server.output()
      expect(log).toContain("[authlib][error][Configuration]")
      expect(log).toMatch(/MissingSecret \(SECRET_MISSING\): "secret" is missing: set AUTH_SECRET/)
      expect(log).toMatch(/UntrustedHost \(TRUST_HOST_FALSE\).*WEBAUTH_URL/)
      expect(log).not.toContain("SESSION_ROUTE_FAILED")
      expect(log).not.toContain("Node.js v")
      // Logged once, when the configuration was first read, not once per request.
      expect(log.split("The configuration has 2 problems").length - 1).toBe(1)
    } finally {
      server.child.kill()
    }
  })
})
