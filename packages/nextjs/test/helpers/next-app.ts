/**
 * The fixture app (`test/fixtures/app`) built with `next build` and served by `next start`, for each
 * Next version the package supports. A build is a folder under `test/fixtures/.build/` with the
 * fixture's files and a `node_modules` of links: `next` (16, or 15.5 from the `next-15` alias),
 * `react`, `react-dom`, authlib's packages. `@authlib/nextjs` is a copy of the package (its
 * `package.json` and `dist`), not a link, so its own `next/headers` resolves to the build's `next`.
 * A build is reused while the fixture, the package's `dist` and the version are unchanged (a hash).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "@authlib/e2e-kit/free-port"

export type NextVersion = "16" | "15"

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const repo = resolve(pkg, "../..")
const fixture = join(pkg, "test/fixtures/app")
export const SECRET = "nextjs-fixture-secret-0123456789abcdef"

/** The build folder of `version`. */
export function buildDir(version: NextVersion): string {
  return join(pkg, "test/fixtures/.build", `next-${version}`)
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? files(path) : [path]
  })
}

/** A hash of what a build is made of: the fixture, the package's dist and package.json, the version, this file (the lay-out). */
function sourceHash(version: NextVersion): string {
  const hash = createHash("sha256").update(version)
  for (const file of [...files(fixture), ...files(join(pkg, "dist")), join(pkg, "package.json"), fileURLToPath(import.meta.url)].sort()) {
    hash.update(relative(pkg, file)).update(readFileSync(file))
  }
  return hash.digest("hex")
}

function link(modules: string, name: string, from: string): void {
  const target = join(modules, name)
  mkdirSync(dirname(target), { recursive: true })
  symlinkSync(realpathSync(from), target)
}

/** Lays the build folder out: the fixture's files, the Next entry file of the version, the links. */
function layOut(version: NextVersion, dir: string): void {
  rmSync(dir, { recursive: true, force: true })
  cpSync(fixture, dir, { recursive: true })
  if (version === "15") {
    // Next 15.5 has no proxy.ts: the same export as middleware, on 15.5's default runtime, the edge
    // (JWT sessions; Next 16's proxy covers Node.js).
    rmSync(join(dir, "proxy.ts"))
    writeFileSync(
      join(dir, "middleware.ts"),
      'export { auth as middleware } from "./auth"\n\nexport const config = { matcher: ["/((?!_next/|favicon.ico|api/me$|api/pages-session$).*)"] }\n',
    )
  }
  const modules = join(dir, "node_modules")
  const own = join(pkg, "node_modules")
  link(modules, "next", join(own, version === "16" ? "next" : "next-15"))
  for (const name of ["react", "react-dom", "@types/react", "@types/react-dom", "typescript"]) link(modules, name, join(own, name))
  link(modules, "@types/node", join(repo, "node_modules/@types/node"))
  link(modules, "@authlib/core", join(pkg, "../core"))
  link(modules, "@authlib/providers", join(own, "@authlib/providers"))
  const copy = join(modules, "@authlib/nextjs")
  mkdirSync(copy, { recursive: true })
  cpSync(join(pkg, "package.json"), join(copy, "package.json"))
  cpSync(join(pkg, "dist"), join(copy, "dist"), { recursive: true })
}

/** The environment of `next build` and `next start`: no telemetry, the repository as Turbopack's root. */
function nextEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|pnpm_|NODE_OPTIONS$|VITEST|AUTH_|WEBAUTH_)/i.test(key)) env[key] = value
  return { ...env, NEXT_TELEMETRY_DISABLED: "1", AUTHLIB_REPO_ROOT: repo, NODE_ENV: "production", ...extra }
}

/** Builds the fixture for `version` unless the build folder already holds this very build. */
export function buildFixture(version: NextVersion): void {
  const dir = buildDir(version)
  const hash = sourceHash(version)
  const stamp = join(dir, ".fixture-hash")
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === hash && existsSync(join(dir, ".next/BUILD_ID"))) return
  layOut(version, dir)
  const build = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { cwd: dir, env: nextEnv(), encoding: "utf8", timeout: 180_000 })
  if (build.status !== 0) throw new Error(`next build (${version}) failed:\n${build.stdout}\n${build.stderr}`)
  writeFileSync(stamp, hash)
}

export interface RunningApp {
  readonly url: string
  readonly version: NextVersion
  /** What the server printed (for a failing test's message). */
  output(): string
  stop(): Promise<void>
}

async function waitUntilUp(url: string, child: ChildProcess, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`)
    try {
      await fetch(`${url}/api/auth/csrf`)
      return
    } catch {
      await new Promise((r) => setTimeout(r, 150))
    }
  }
  throw new Error("next start did not answer within 30 s")
}

/** Serves the build of `version` on a free 127.0.0.1 port; the server is killed by `stop()`, or after 5 minutes at the latest. */
export async function startFixture(version: NextVersion, env: Record<string, string> = {}): Promise<RunningApp> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: buildDir(version),
    env: nextEnv({ AUTH_SECRET: SECRET, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const guard = setTimeout(() => child.kill("SIGKILL"), 300_000)
  guard.unref()
  const stop = async () => {
    clearTimeout(guard)
    if (child.exitCode !== null) return
    const exited = new Promise((r) => child.once("exit", r))
    child.kill("SIGTERM")
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))])
    if (child.exitCode === null) child.kill("SIGKILL")
  }
  try {
    await waitUntilUp(url, child, Date.now() + 30_000)
  } catch (err) {
    await stop()
    throw new Error(`${(err as Error).message}\n${output}`)
  }
  return { url, version, output: () => output, stop }
}

/** Whether `path` is a directory (for the global set-up's checks). */
export function isDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory()
}
