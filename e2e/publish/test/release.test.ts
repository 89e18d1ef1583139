/**
 * A release, as `pnpm version-packages` and `pnpm release` make it, to a registry in this process,
 * then the published packages used alone. On a copy of the workspace (`src/release.ts`):
 * 1. `changeset version` turns the pending changesets into versions and changelogs;
 * 2. `changeset publish` publishes every package (pnpm publish, `workspace:` ranges resolved) and
 *    tags the release in git;
 * 3. a changeset for `@authlib/xata-adapter` alone, `changeset version`, `changeset publish`: only the
 *    adapter is published, on its new version.
 * The third-party packages they need are packed from what pnpm installed here (the e2e kit's
 * third-party packer, `e2e/kit`).
 * Then, in projects in a temporary folder outside the workspace, plain `npm install` from that
 * registry only:
 * - `@authlib/core` + `@authlib/providers`: type-check under `moduleResolution` bundler and node16,
 *   and a `node:http` server on `toNodeHandler` signs a user in and out over HTTP;
 * - `@authlib/xata-adapter` (its new version) + its PGlite peer, beside the `@authlib/core` of the
 *   first release it depends on: type-checks, migrates a PGlite database, stores and reads a user; its CLI runs.
 */
import { execFile, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cleanEnv } from "@authlib/e2e-kit/clean-env"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { startRegistry, type Registry } from "@authlib/e2e-kit/registry"
import { installAndTypecheck, installedVersion, type CheckedProject } from "@authlib/e2e-kit/scratch"
import { readPackageJson, thirdPartyClosure } from "@authlib/e2e-kit/third-party"
import { addChangeset, changeset, commitAll, copyWorkspace, git, pendingChangesets, type WorkspaceCopy } from "../src/release.js"

const exec = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, "..", "..", "..")
const TSC = join(repo, "node_modules", "typescript", "bin", "tsc")
const ADAPTER = "@authlib/xata-adapter"

let registry: Registry
let tmp: string
let copy: WorkspaceCopy
/** Environment of `changeset publish`: the registry, its token, no scripts (turbo built already), a temporary cache. */
let publishEnv: Record<string, string>
/** Versions after the first release. */
const released = new Map<string, string>()
/**
 * The core + providers project, installed and type-checked while the second release runs (it needs
 * only the first): the machine has two cores, and this is where the test spends its time.
 */
let coreProject: Promise<CheckedProject> | undefined
/** The checkout's package versions and release tags before the test. */
const workspaceVersions = new Map<string, string>()
let workspaceTags: string[] = []

const versions = () => new Map([...copy.packages.keys()].map((name) => [name, copy.manifest(name).version]))
const puts = () => registry.log.filter((line) => line.startsWith("PUT "))

beforeAll(async () => {
  registry = await startRegistry()
  tmp = mkdtempSync(join(tmpdir(), "authlib-release-"))
  for (const name of readdirSync(join(repo, "packages"))) {
    if (existsSync(join(repo, "packages", name, "package.json"))) workspaceVersions.set(name, readPackageJson(join(repo, "packages", name)).version)
  }
  workspaceTags = (await exec("git", ["tag", "--list", "@authlib/*"], { cwd: repo, env: cleanEnv() })).stdout.split("\n").filter(Boolean)
  // What the scratch projects install from outside the workspace: the closure of core, providers and
  // the adapter, PGlite (the adapter's peer, as its tests have it) and @types/node.
  const pkg = (name: string) => join(repo, "packages", name)
  const extra = [
    { name: "@electric-sql/pglite", from: pkg("xata-adapter") },
    { name: "@types/node", from: join(here, "..") },
  ]
  for (const { manifest, tarball } of thirdPartyClosure([pkg("core"), pkg("providers"), pkg("xata-adapter")], extra)) registry.add(manifest, tarball)

  copy = await copyWorkspace(repo, join(tmp, "workspace"))
  writeFileSync(join(tmp, "publish.npmrc"), registry.npmrc())
  writeFileSync(join(tmp, "empty.npmrc"), "")
  publishEnv = {
    npm_config_registry: registry.url,
    npm_config_userconfig: join(tmp, "publish.npmrc"),
    npm_config_globalconfig: join(tmp, "empty.npmrc"),
    npm_config_cache: join(tmp, "publish-cache"),
    npm_config_ignore_scripts: "true",
  }
})

afterAll(async () => {
  await registry?.close()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

describe("the release path (changesets) against the local registry", () => {
  it("changeset version turns the pending changesets into versions and changelogs", async () => {
    const before = versions()
    const pending = pendingChangesets(copy)
    if (pending.length === 0) return // nothing pending: the first release publishes the versions as they are
    await changeset(repo, copy, ["version"])
    expect(pendingChangesets(copy)).toEqual([])
    const named = new Set(pending.flatMap((file) => [...readFileSync(join(repo, ".changeset", file), "utf8").matchAll(/^"(@authlib\/[\w-]+)":/gm)].map((m) => m[1]!)))
    for (const [name, version] of versions()) {
      if (!named.has(name)) continue
      expect(version, name).not.toBe(before.get(name))
      expect(readFileSync(join(copy.packages.get(name)!, "CHANGELOG.md"), "utf8"), name).toContain(`## ${version}`)
    }
    await commitAll(copy, "Version packages")
  })

  it("changeset publish publishes every package (workspace ranges resolved to versions) and tags the release", async () => {
    const output = await changeset(repo, copy, ["publish"], publishEnv)
    const current = versions()
    const putOf = (name: string) => `PUT /${name.replace("/", "%2f")} 201`
    expect(puts().sort(), output).toEqual([...current.keys()].map(putOf).sort())
    for (const [name, version] of current) {
      const doc = registry.packument(name)
      expect(doc?.["dist-tags"].latest, `${name}\n${output}`).toBe(version)
      const manifest = doc!.versions[version]!
      for (const field of ["dependencies", "peerDependencies", "optionalDependencies"] as const) {
        for (const [dep, range] of Object.entries((manifest[field] ?? {}) as Record<string, string>)) {
          expect(range, `${name} ${field} ${dep}`).not.toMatch(/^workspace:/)
          if (current.has(dep)) expect(range, `${name} -> ${dep}`).toBe(`^${current.get(dep)}`)
        }
      }
      released.set(name, version)
    }
    const tags = (await git(copy.dir, "tag", "--list")).split("\n").filter(Boolean)
    expect(tags.sort()).toEqual([...current].map(([name, version]) => `${name}@${version}`).sort())

    coreProject = installAndTypecheck({
      dir: join(tmp, "core-providers"),
      manifest: { name: "core-providers", dependencies: { "@authlib/core": released.get("@authlib/core"), "@authlib/providers": released.get("@authlib/providers") }, devDependencies: { "@types/node": "20.19.43" } },
      files: { "src/server.ts": SERVER },
      registry: registry.url,
      cache: join(tmp, "cache-core-providers"),
      tsc: TSC,
    })
    coreProject.catch(() => {}) // awaited (and its failure reported) by the test that uses it
  })

  it(`a changeset for ${ADAPTER} alone releases only the adapter, on its own new version`, async () => {
    await addChangeset(copy, "e2e-adapter-alone.md", { [ADAPTER]: "patch" }, "The adapter released on its own (release test).")
    await changeset(repo, copy, ["version"])
    const after = versions()
    for (const [name, version] of released) {
      if (name === ADAPTER) expect(after.get(name)).not.toBe(version)
      else expect(after.get(name), `${name} is not bumped by the adapter's changeset`).toBe(version)
    }
    expect(readFileSync(join(copy.packages.get(ADAPTER)!, "CHANGELOG.md"), "utf8")).toContain("The adapter released on its own (release test).")
    await commitAll(copy, "Version packages")

    const putsBefore = puts().length
    const output = await changeset(repo, copy, ["publish"], publishEnv)
    expect(puts().slice(putsBefore), output).toEqual([`PUT /${ADAPTER.replace("/", "%2f")} 201`])
    expect(Object.keys(registry.packument(ADAPTER)!.versions)).toEqual([released.get(ADAPTER), after.get(ADAPTER)])
    expect(registry.packument(ADAPTER)!["dist-tags"].latest).toBe(after.get(ADAPTER))
    for (const [name, version] of released) {
      if (name === ADAPTER) continue
      expect(Object.keys(registry.packument(name)!.versions), name).toEqual([version])
      expect(output).toContain(`${name} is not being published because version ${version} is already published`)
    }
    expect(await git(copy.dir, "tag", "--list", `${ADAPTER}@*`)).toContain(`${ADAPTER}@${after.get(ADAPTER)}`)
  })
})

const SERVER = `import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { AuthConfig } from "@authlib/core"
import { getSession, toNodeHandler } from "@authlib/core/node"
import Credentials from "@authlib/providers/credentials"

// AUTH_SECRET comes from the environment.
const config: AuthConfig = {
  trustHost: true,
  providers: [
    Credentials({
      credentials: { email: { label: "E-mail" }, password: { label: "Password", type: "password" } },
      authorize: async ({ email, password }) =>
        email === "grace@example.com" && password === "cobol-1959" ? { id: "u-7", name: "Grace Hopper", email } : null,
    }),
  ],
}

const auth = toNodeHandler(config)
const server = createServer((req, res) =>
  auth(req, res, async () => {
    if (req.url === "/me") {
      const session = await getSession(req, config)
      res.writeHead(session ? 200 : 401, { "content-type": "application/json" }).end(JSON.stringify(session))
      return
    }
    res.writeHead(404).end()
  }),
)
server.listen(0, "127.0.0.1", () => console.log(\`ready http://127.0.0.1:\${(server.address() as AddressInfo).port}\`))
`

/** Starts `node <file>` in `dir`; resolves with the origin it prints. Killed after `limitMs` at the latest. */
async function startServer(dir: string, file: string, env: Record<string, string>, limitMs = 60_000) {
  const child = spawn("node", [file], { cwd: dir, env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"], timeout: limitMs })
  let output = ""
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 20_000)
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const found = /ready (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (found) {
        clearTimeout(timer)
        resolve(found[1]!)
      }
    })
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`the server exited (${code}):\n${output}`))))
  })
  return { origin, output: () => output, stop: () => child.kill() }
}

describe("installed alone, outside the workspace", () => {
  it("@authlib/core + @authlib/providers: installs, type-checks (bundler, node16) and signs in and out over HTTP with toNodeHandler", async () => {
    expect(coreProject, "the first release ran").toBeDefined()
    const { dir, packages, diagnostics } = await coreProject!
    expect(packages).toEqual(expect.arrayContaining(["@authlib/core", "@authlib/jwt", "@authlib/providers", "jose", "oauth4webapi"]))
    for (const absent of ["@authlib/xata-adapter", "@authlib/qwik", "@authlib/adapter-test", "@simplewebauthn/server", "nodemailer", "@electric-sql/pglite"]) expect(packages).not.toContain(absent)
    expect(installedVersion(dir, "@authlib/core")).toBe(released.get("@authlib/core"))
    expect(diagnostics["tsconfig.bundler.json"], "moduleResolution bundler").toEqual([])
    expect(diagnostics["tsconfig.node16.json"], "moduleResolution node16").toEqual([])
    expect(existsSync(join(dir, "dist", "server.js"))).toBe(true)

    const server = await startServer(dir, "dist/server.js", { AUTH_SECRET: "release-test-secret-3f9a1c0e7b5d2468ace", NODE_ENV: "production" })
    try {
      const { origin } = server
      const jar = new CookieJar(origin)
      const form = (fields: Record<string, string>) => ({
        method: "POST",
        redirect: "manual" as const,
        headers: { cookie: jar.header(), origin, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      })
      const csrf = jar.keep(await fetch(`${origin}/auth/csrf`))
      expect(csrf.status).toBe(200)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      expect(jar.names()).toContain("authlib.csrf-token")

      const refused = jar.keep(await fetch(`${origin}/auth/callback/credentials`, form({ csrfToken, email: "grace@example.com", password: "fortran" })))
      expect(refused.status, server.output()).toBe(302)
      expect(refused.headers.get("location")).toContain("error=CredentialsSignin")
      expect(jar.get("authlib.session-token")).toBeUndefined()

      const noToken = await fetch(`${origin}/auth/callback/credentials`, form({ email: "grace@example.com", password: "cobol-1959" }))
      expect(noToken.headers.get("location") ?? "").toContain("error=MissingCSRF")

      const signIn = jar.keep(await fetch(`${origin}/auth/callback/credentials`, form({ csrfToken, email: "grace@example.com", password: "cobol-1959" })))
      expect(signIn.status).toBe(302)
      expect(jar.get("authlib.session-token")).toBeTruthy()
      const session = await (await fetch(`${origin}/auth/session`, { headers: { cookie: jar.header() } })).json()
      expect(session).toMatchObject({ user: { name: "Grace Hopper", email: "grace@example.com" }, expires: expect.any(String) })
      const me = await fetch(`${origin}/me`, { headers: { cookie: jar.header() } })
      expect(me.status).toBe(200)
      expect(await me.json()).toMatchObject({ user: { email: "grace@example.com" } })

      const signOut = jar.keep(await fetch(`${origin}/auth/signout`, form({ csrfToken })))
      expect(signOut.status).toBe(302)
      expect(jar.get("authlib.session-token")).toBeUndefined()
      expect(await (await fetch(`${origin}/auth/session`, { headers: { cookie: jar.header() } })).json()).toBeNull()
      expect((await fetch(`${origin}/me`, { headers: { cookie: jar.header() } })).status).toBe(401)
    } finally {
      server.stop()
    }
  })

  const PROGRAM = `import { PGlite } from "@electric-sql/pglite"
import { MIGRATIONS, XataAdapter, migrate } from "@authlib/xata-adapter"

const db = new PGlite()
const first = await migrate(db)
const again = await migrate(db)
const adapter = XataAdapter(db)
const created = await adapter.createUser({ id: "u-1", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null })
const byId = await adapter.getUser(created.id)
const byEmail = await adapter.getUserByEmail("ada@example.com")
const latest = Math.max(...MIGRATIONS.map((m) => m.version))
console.log(JSON.stringify({ first, again, latest, created, byId, byEmail }))
await db.close()
`

  it(`${ADAPTER} alone on its own version, with its PGlite peer: installs beside the core of the first release, type-checks, migrates and stores a user; its CLI runs`, async () => {
    const adapter = copy.manifest(ADAPTER).version
    const core = released.get("@authlib/core")!
    expect(adapter).not.toBe(released.get(ADAPTER))
    const pglite = readPackageJson(join(repo, "packages", "xata-adapter", "node_modules", "@electric-sql", "pglite")).version
    const { dir, packages, diagnostics } = await installAndTypecheck({
      dir: join(tmp, "adapter-alone"),
      manifest: { name: "adapter-alone", dependencies: { [ADAPTER]: adapter, "@electric-sql/pglite": pglite }, devDependencies: { "@types/node": "20.19.43" } },
      files: { "src/main.ts": PROGRAM },
      registry: registry.url,
      cache: join(tmp, "cache-adapter-alone"),
      tsc: TSC,
    })
    expect(installedVersion(dir, ADAPTER)).toBe(adapter)
    expect(installedVersion(dir, "@authlib/core")).toBe(core)
    for (const absent of ["@authlib/providers", "@authlib/qwik", "@authlib/adapter-test", "@xata.io/client", "pg"]) expect(packages).not.toContain(absent)
    // Library checks stay on; the only errors allowed are in PGlite's own declarations (they need
    // Emscripten's types, which PGlite does not declare as a dependency).
    for (const [config, lines] of Object.entries(diagnostics)) {
      expect(lines.filter((line) => !line.startsWith("node_modules/@electric-sql/pglite/")), config).toEqual([])
    }
    const { stdout } = await exec("node", ["dist/main.js"], { cwd: dir, env: cleanEnv(), timeout: 90_000 })
    const out = JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, { applied?: number[]; version?: number; id?: string }> & { latest: number }
    expect(out.first!.version).toBe(out.latest)
    expect(out.first!.applied!.length).toBeGreaterThan(0)
    expect(out.again).toEqual({ applied: [], version: out.latest })
    for (const key of ["created", "byId", "byEmail"]) expect(out[key], key).toMatchObject({ id: "u-1", name: "Ada Lovelace", email: "ada@example.com" })

    const schema = await exec(join(dir, "node_modules", ".bin", "authlib-xata"), ["schema"], { cwd: dir, env: cleanEnv(), timeout: 30_000 })
    expect(schema.stdout).toContain("authlib_users")
  })
})

it("the checkout is untouched: versions and tags changed only in the copy", async () => {
  for (const [name, version] of workspaceVersions) expect(readPackageJson(join(repo, "packages", name)).version, name).toBe(version)
  const tags = await exec("git", ["tag", "--list", "@authlib/*"], { cwd: repo, env: cleanEnv() })
  expect(tags.stdout.split("\n").filter(Boolean)).toEqual(workspaceTags)
})
