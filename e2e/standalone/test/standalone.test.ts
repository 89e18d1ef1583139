/**
 * The packages stand alone. Every publishable workspace package is published (`pnpm -r publish`,
 * what a release runs) to a registry in this process, next to the third-party packages they need
 * (packed from what pnpm installed here: nothing is downloaded). Then, in scratch projects outside
 * the repository, plain `npm install`:
 * - only `@authlib/core` + `@authlib/providers`: the snippet type-checks under `moduleResolution`
 *   bundler and node16, and a `node:http` server built on `toNodeHandler` signs a user in over HTTP;
 * - only `@authlib/xata-adapter` (published again on its own version, 0.1.0) + its PGlite peer: it
 *   installs beside the core it depends on, type-checks, migrates and stores a user;
 * - the root README's quick starts as written (node:http + OpenID Connect, Express + GitHub):
 *   installed, compiled with the README's tsconfig.json, their first-run output compared, a user
 *   signed in over HTTP.
 * Every type-check runs with TypeScript 5.9 and with 7 (what `npm install -D typescript` installs).
 */
import { execFile, spawn } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth, setEnvDefaults, type AuthConfig } from "@authlib/core"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { startRegistry, type Registry } from "@authlib/e2e-kit/registry"
import { installedPackages, installedVersion, npmInstall as npmInstallFrom, scratchProject, TSCONFIGS, tsc } from "@authlib/e2e-kit/scratch"
import { thirdPartyClosure } from "@authlib/e2e-kit/third-party"
import { freePort } from "@authlib/e2e-kit/free-port"
import { exportedNames, GITHUB_FETCH_ROUTE, readmeBlock, startGitHubStandIn, startHttpsOP } from "../src/quickstart.js"
import { publishWorkspace } from "../src/release.js"
import { readForm, Walker } from "../src/walk.js"

const run = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, "..", "..", "..")
/**
 * The compilers a consumer's code is checked with: the pinned 5.9 the workspace builds with, and
 * TypeScript 7 (the native port), what `npm install -D typescript` installs today. 7 runs last, so
 * what it emits is what the quick starts run.
 */
const COMPILERS: [version: string, tsc: string][] = [
  ["5.9", join(repo, "node_modules", "typescript", "bin", "tsc")],
  ["7", join(here, "..", "node_modules", "typescript7", "bin", "tsc")],
]
const PUBLISHED = ["jwt", "core", "providers", "xata-adapter", "adapter-test", "qwik", "redis", "saml", "nextjs"]

let registry: Registry
let scratchRoot: string

/** Runs `npm install` in `dir` against the local registry only, with its own cache and config. */
const npmInstall = (dir: string) => npmInstallFrom(dir, registry.url, join(dir, ".npm-cache"))

/** A scratch project outside the repository with `package.json` and files. */
const scratch = (name: string, manifest: object, files: Record<string, string>) => scratchProject(join(scratchRoot, name), { name, ...manifest }, files)

/** Type-checks `dir` under each tsconfig with each compiler (the scratch project's own types). */
async function typecheck(dir: string, configs: string[], skipLibCheck = false): Promise<void> {
  for (const config of configs) {
    if (skipLibCheck) {
      const path = join(dir, config)
      const json = JSON.parse(readFileSync(path, "utf8")) as { compilerOptions: Record<string, unknown> }
      writeFileSync(path, JSON.stringify({ ...json, compilerOptions: { ...json.compilerOptions, skipLibCheck: true } }))
    }
    for (const [version, compiler] of COMPILERS) {
      expect(await tsc(compiler, dir, config), `TypeScript ${version}: tsc -p ${config}`).toEqual([])
    }
  }
}

beforeAll(async () => {
  registry = await startRegistry()
  scratchRoot = mkdtempSync(join(tmpdir(), "authlib-standalone-"))
  const roots = PUBLISHED.map((p) => realpathSync(join(repo, "packages", p)))
  const from = realpathSync(join(here, ".."))
  const extra = ["@electric-sql/pglite", "@types/node", "express", "@types/express"].map((name) => ({ name, from }))
  for (const { manifest, tarball } of thirdPartyClosure(roots.slice(0, 4), extra)) registry.add(manifest, tarball)
  const npmrc = await publishWorkspace(repo, registry, scratchRoot)
  // The adapter alone, on its own version: a copy of its package with version 0.1.0, published with npm.
  const adapterCopy = join(scratchRoot, "xata-adapter-0.1.0")
  const source = join(repo, "packages", "xata-adapter")
  const manifest = JSON.parse(readFileSync(join(source, "package.json"), "utf8")) as Record<string, unknown> & { files?: string[]; dependencies: Record<string, string> }
  // `files` may name what a release makes (CHANGELOG.md, written by `changeset version`).
  for (const entry of ["package.json", "README.md", "LICENSE", ...(manifest.files ?? [])]) if (existsSync(join(source, entry))) cpSync(join(source, entry), join(adapterCopy, entry), { recursive: true })
  const coreVersion = registry.versions("@authlib/core")[0]!
  writeFileSync(join(adapterCopy, "package.json"), JSON.stringify({ ...manifest, version: "0.1.0", dependencies: { ...manifest.dependencies, "@authlib/core": `^${coreVersion}` }, scripts: {} }, null, 2))
  await run("npm", ["publish", "--registry", registry.url, "--userconfig", npmrc, "--ignore-scripts", "--access", "public"], { cwd: adapterCopy, timeout: 120_000 })
})

afterAll(async () => {
  await registry?.close()
  if (scratchRoot) rmSync(scratchRoot, { recursive: true, force: true })
})

describe("the compilers consumers are checked with", () => {
  it("are TypeScript 5.9 and 7, and 7 runs from what was installed (its platform binary, nothing fetched)", async () => {
    const versions = await Promise.all(COMPILERS.map(async ([, compiler]) => (await run("node", [compiler, "--version"], { timeout: 60_000, env: { PATH: process.env.PATH! } })).stdout.trim()))
    expect(versions).toEqual(["Version 5.9.3", expect.stringMatching(/^Version 7\./)])
  })
})

describe("publishing", () => {
  it("every publishable package is on the registry, with workspace ranges replaced by versions; the adapter also on its own 0.1.0", () => {
    for (const p of PUBLISHED) {
      const name = `@authlib/${p}`
      expect(registry.versions(name), name).toContain(JSON.parse(readFileSync(join(repo, "packages", p, "package.json"), "utf8")).version)
    }
    expect(registry.versions("@authlib/xata-adapter")).toContain("0.1.0")
    expect(registry.log.filter((l) => l.startsWith("PUT "))).toHaveLength(PUBLISHED.length + 1)
  })
})

const SERVER = `import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { AuthConfig } from "@authlib/core"
import { toNodeHandler } from "@authlib/core/node"
import Credentials from "@authlib/providers/credentials"

const config: AuthConfig = {
  trustHost: true,
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: async (input) =>
        input.username === "ada" && input.password === "lovelace" ? { id: "1", name: "Ada Lovelace", email: "ada@example.com" } : null,
    }),
  ],
}

const auth = toNodeHandler(config)
const server = createServer((req, res) => auth(req, res, () => res.writeHead(404).end("not found")))
server.listen(0, "127.0.0.1", () => console.log(\`listening on http://127.0.0.1:\${(server.address() as AddressInfo).port}\`))
`

describe("a Node server with only @authlib/core and @authlib/providers", () => {
  it("installs alone, type-checks (bundler and node16) and signs in over HTTP", async () => {
    const dir = scratch("node-server", { dependencies: { "@authlib/core": "0.0.0", "@authlib/providers": "0.0.0" }, devDependencies: { "@types/node": "20.19.43" } }, { "src/server.ts": SERVER, ...TSCONFIGS })
    await npmInstall(dir)
    const packages = installedPackages(dir)
    expect(packages).toEqual(expect.arrayContaining(["@authlib/core", "@authlib/jwt", "@authlib/providers", "oauth4webapi", "jose"]))
    for (const absent of ["@authlib/xata-adapter", "@authlib/qwik", "@authlib/adapter-test", "@simplewebauthn/server", "nodemailer"]) expect(packages).not.toContain(absent)
    await typecheck(dir, ["tsconfig.bundler.json", "tsconfig.node16.json"])

    const child = spawn("node", ["dist/server.js"], { cwd: dir, env: { ...process.env, AUTH_SECRET: "standalone-secret-0123456789abcdefghijklmnop", NODE_ENV: "production" }, stdio: ["ignore", "pipe", "pipe"] })
    const errors: string[] = []
    child.stderr!.on("data", (chunk: Buffer) => errors.push(chunk.toString()))
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the server did not start")), 20_000)
        child.stdout!.on("data", (chunk: Buffer) => {
          const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString())
          if (found) (clearTimeout(timer), resolve(found[1]!))
        })
        child.once("exit", (code) => reject(new Error(`the server exited with ${code}`)))
      })
      const jar = new CookieJar(origin)
      const keep = (res: Response) => jar.keep(res)
      const cookie = () => jar.header()
      const csrf = await fetch(`${origin}/auth/csrf`)
      keep(csrf)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      const wrong = await fetch(`${origin}/auth/callback/credentials`, {
        method: "POST", redirect: "manual",
        headers: { cookie: cookie(), origin, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: "ada", password: "wrong" }),
      })
      expect(wrong.status, errors.join("")).toBe(302)
      expect(wrong.headers.get("location")).toContain("error=CredentialsSignin")
      const signIn = await fetch(`${origin}/auth/callback/credentials`, {
        method: "POST", redirect: "manual",
        headers: { cookie: cookie(), origin, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: "ada", password: "lovelace" }),
      })
      expect(signIn.status).toBe(302)
      keep(signIn)
      const session = await (await fetch(`${origin}/auth/session`, { headers: { cookie: cookie() } })).json()
      expect(session).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } })
      expect((await fetch(`${origin}/elsewhere`)).status).toBe(404)
    } finally {
      child.kill()
    }
  })
})

const ADAPTER = `import { PGlite } from "@electric-sql/pglite"
import { XataAdapter, migrate } from "@authlib/xata-adapter"

const db = new PGlite()
const migrated = await migrate(db)
const adapter = XataAdapter(db)
await adapter.createUser({ id: "u1", name: "Ada", email: "ada@example.com", emailVerified: null })
const found = await adapter.getUserByEmail("ada@example.com")
console.log(JSON.stringify({ migrated, found }))
await db.close()
`

describe("the Xata adapter alone, on its own version", () => {
  it("installs 0.1.0 with its PGlite peer beside the core it depends on, type-checks and stores a user", async () => {
    const dir = scratch("adapter-only", { dependencies: { "@authlib/xata-adapter": "0.1.0", "@electric-sql/pglite": "0.5.16" }, devDependencies: { "@types/node": "20.19.43" } }, { "src/main.ts": ADAPTER, ...TSCONFIGS })
    await npmInstall(dir)
    expect(installedVersion(dir, "@authlib/xata-adapter")).toBe("0.1.0")
    expect(installedVersion(dir, "@authlib/core")).toBe("0.0.0")
    for (const absent of ["@authlib/providers", "@authlib/qwik", "@xata.io/client", "pg"]) expect(installedPackages(dir)).not.toContain(absent)
    // PGlite's own declarations do not check on their own (they need Emscripten's types): skip library checks here.
    await typecheck(dir, ["tsconfig.bundler.json", "tsconfig.node16.json"], true)
    const { stdout } = await run("node", ["dist/main.js"], { cwd: dir, timeout: 60_000 })
    const out = JSON.parse(stdout.trim().split("\n").pop()!) as { migrated: { version: number }; found: { id: string; email: string } }
    expect(out.migrated.version).toBeGreaterThanOrEqual(4)
    expect(out.found).toMatchObject({ id: "u1", email: "ada@example.com" })
  })
})

const README = readFileSync(join(repo, "README.md"), "utf8")
const block = (name: string) => readmeBlock(README, name)

/** Runs `node <args>` in `dir` with exactly `env` (and PATH); collects what it prints. */
function startNode(dir: string, args: string[], env: Record<string, string>) {
  const child = spawn("node", args, { cwd: dir, env: { PATH: process.env.PATH!, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  const output: string[] = []
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()))
  return { output: () => output.join(""), stop: () => void child.kill() }
}

/**
 * Runs `start(port)` on a free port until its output says "listening". A port found free can be
 * taken by another suite's server before the child binds it (EADDRINUSE); then it starts again on
 * another one, at most three times.
 */
async function listeningOnFreePort<T extends { output(): string; stop(): void | Promise<void> }>(start: (port: number) => Promise<T>) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const started = await start(port)
    await expect.poll(() => /listening|EADDRINUSE/.test(started.output()), { timeout: 20_000 }).toBe(true)
    if (!started.output().includes("EADDRINUSE")) return { port, origin: `http://127.0.0.1:${port}`, ...started }
    await started.stop()
    if (attempt === 3) throw new Error(`no free port after three tries:\n${started.output()}`)
  }
}

/**
 * A quick start's project: the README's server block as written (it listens on `PORT`, which the
 * test sets) and its `tsconfig.json` (the Node quick start's; the Express one says "the same"),
 * installed, type-checked under `tsconfigs`, then compiled as the README says (`npx tsc`).
 */
async function quickstartProject(name: string, dependencies: Record<string, string>, devDependencies: Record<string, string>, tsconfigs: Record<string, string>) {
  const dir = scratch(name, { dependencies, devDependencies: { "@types/node": "20.19.43", ...devDependencies } }, {
    "src/server.ts": block(`${name}/src/server.ts`),
    "tsconfig.json": block("node-oidc/tsconfig.json"),
    ...tsconfigs,
  })
  await npmInstall(dir)
  await typecheck(dir, Object.keys(tsconfigs))
  rmSync(join(dir, "dist"), { recursive: true, force: true })
  await typecheck(dir, ["tsconfig.json"])
  // Where the README runs it from (a compiler that guesses `rootDir` differently would put it in dist/src/).
  expect(existsSync(join(dir, "dist", "server.js"))).toBe(true)
  return dir
}

describe("the root README's environment notes", () => {
  it("AUTH_URL is not read, and without WEBAUTH_URL (or AUTH_TRUST_HOST) a request answers an error", async () => {
    const messages: unknown[][] = []
    const config: AuthConfig = { providers: [], logger: { error: (...args: unknown[]) => void messages.push(args), warn: () => {}, debug: () => {} } }
    setEnvDefaults({ AUTH_SECRET: "quickstart-secret-0123456789abcdefghijklmnop", AUTH_URL: "http://127.0.0.1:3000" }, config)
    expect(config.url).toBeUndefined()
    const res = await Auth(new Request("http://127.0.0.1:3000/auth/session"), config)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(JSON.stringify(messages)).toContain("UntrustedHost")
  })
})

describe("the root README's Node quick start (node:http, OpenID Connect)", () => {
  it("runs as written (on a free port, as PORT): installs, type-checks, prints its line, and signs in at an OpenID provider over https", async () => {
    const dir = await quickstartProject("node-oidc", { "@authlib/core": "0.0.0", "@authlib/providers": "0.0.0" }, {}, TSCONFIGS)
    // The README's variables, with this test's values.
    expect(exportedNames(block("node-oidc/env"))).toEqual(["AUTH_SECRET", "WEBAUTH_URL", "AUTH_OIDC_ID", "AUTH_OIDC_SECRET", "AUTH_OIDC_ISSUER"])
    const { port, origin, op, output, stop } = await listeningOnFreePort(async (port) => {
      const origin = `http://127.0.0.1:${port}`
      const op = await startHttpsOP(dir, `${origin}/auth/callback/oidc`)
      const node = startNode(dir, ["dist/server.js"], {
        PORT: String(port),
        AUTH_SECRET: "quickstart-secret-0123456789abcdefghijklmnop",
        WEBAUTH_URL: origin,
        AUTH_OIDC_ID: "quickstart",
        AUTH_OIDC_SECRET: "quickstart-secret-0123456789",
        AUTH_OIDC_ISSUER: op.issuer,
        NODE_EXTRA_CA_CERTS: op.certFile,
      })
      return { op, output: node.output, stop: async () => (node.stop(), await op.close()) }
    })
    try {
      const browser = new Walker(op.ca)
      expect(JSON.parse((await browser.follow(`${origin}/`)).body)).toEqual({ signIn: "/auth/signin" })
      const { csrfToken } = JSON.parse((await browser.fetch(`${origin}/auth/csrf`)).body) as { csrfToken: string }
      // The sign-in button: POST to authlib, which sends the browser to the provider.
      let page = await browser.follow(`${origin}/auth/signin/oidc`, { form: { csrfToken, callbackUrl: `${origin}/` }, headers: { origin } })
      for (let round = 0; round < 4 && !page.url.startsWith(origin); round++) {
        const { action } = readForm(page.body, page.url)
        const answer: Record<string, string> = /name="prompt" value="consent"/.test(page.body) ? { prompt: "consent" } : { prompt: "login", login: "ada", password: "any" }
        page = await browser.follow(action, { form: answer, headers: { origin: op.issuer } })
      }
      expect(page.url).toBe(`${origin}/`)
      const session = JSON.parse(page.body) as Record<string, unknown>
      expect(Object.keys(session).sort()).toEqual(["expires", "user"])
      expect(session).toMatchObject({ user: { email: "ada@example.com", name: "Ada Lovelace" } })
      // What a first run prints, as the README says (on the port it was given).
      expect(output()).toBe(block("node-oidc/output").replaceAll("3000", String(port)))
    } finally {
      await stop()
    }
  })
})

describe("the root README's Express + GitHub quick start", () => {
  it("runs as written: installs with express, type-checks, prints its line, and signs in through GitHub's OAuth flow (github.com stood in for)", async () => {
    const bundler = JSON.parse(TSCONFIGS["tsconfig.bundler.json"]) as { compilerOptions: object }
    const tsconfigs = { ...TSCONFIGS, "tsconfig.bundler.json": JSON.stringify({ ...bundler, compilerOptions: { ...bundler.compilerOptions, esModuleInterop: true } }) }
    const dir = await quickstartProject("express-github", { "@authlib/core": "0.0.0", "@authlib/providers": "0.0.0", express: "5.2.1" }, { "@types/express": "5.0.6" }, tsconfigs)
    expect(exportedNames(block("express-github/env"))).toEqual(["AUTH_SECRET", "WEBAUTH_URL", "AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET"])
    const app = { clientId: "Ov23liQuickStart", clientSecret: "quickstart-github-secret-0123456789" }
    const github = await startGitHubStandIn(app)
    writeFileSync(join(dir, "github-fetch-route.mjs"), GITHUB_FETCH_ROUTE)
    const { port, origin, output, stop } = await listeningOnFreePort(async (port) => startNode(dir, ["--import", "./github-fetch-route.mjs", "dist/server.js"], {
      PORT: String(port),
      AUTH_SECRET: "quickstart-secret-0123456789abcdefghijklmnop",
      WEBAUTH_URL: `http://127.0.0.1:${port}`,
      AUTH_GITHUB_ID: app.clientId,
      AUTH_GITHUB_SECRET: app.clientSecret,
      GITHUB_STAND_IN: github.url,
    }))
    try {
      const browser = new Walker()
      expect(JSON.parse((await browser.follow(`${origin}/`)).body)).toEqual({ signIn: "/auth/signin" })
      // The built-in sign-in page's GitHub button, pressed.
      const button = readForm((await browser.fetch(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/`)}`)).body, `${origin}/auth/signin`)
      expect(button.action).toBe(`${origin}/auth/signin/github`)
      const start = await browser.fetch(button.action, { form: button.fields, headers: { origin } })
      expect(start.status).toBe(302)
      const authorize = new URL(start.location!)
      expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize")
      expect(Object.fromEntries(["client_id", "redirect_uri", "scope", "code_challenge_method"].map((k) => [k, authorize.searchParams.get(k)]))).toEqual({
        client_id: app.clientId, redirect_uri: `${origin}/auth/callback/github`, scope: "read:user user:email", code_challenge_method: "S256",
      })
      // The user approves at GitHub, which sends the browser back with a code, the state and its issuer.
      github.approve("quickstart-code", authorize.searchParams.get("code_challenge")!)
      const back = new URLSearchParams({ code: "quickstart-code", state: authorize.searchParams.get("state")!, iss: "https://github.com/login/oauth" })
      const page = await browser.follow(`${origin}/auth/callback/github?${back}`)
      expect(page.url).toBe(`${origin}/`)
      expect(JSON.parse(page.body)).toMatchObject({ user: { name: "The Octocat", email: "octocat@github.com" } })
      expect(github.calls.map((c) => c.url)).toEqual(["https://github.com/login/oauth/access_token", "https://api.github.com/user", "https://api.github.com/user/emails"])
      expect(output()).toBe(block("express-github/output").replaceAll("3000", String(port)))
    } finally {
      await stop()
      await github.close()
    }
  })
})
