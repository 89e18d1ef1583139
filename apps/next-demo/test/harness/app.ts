/**
 * The demo built once (`next build`) and served by `next start` on free 127.0.0.1 ports, each
 * instance with its own data folder (PGlite) or a shared PostgreSQL database (`DATABASE_URL`).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { cleanEnv } from "@authlib/e2e-kit/clean-env"
import { freePort } from "@authlib/e2e-kit/free-port"

export const app = resolve(dirname(fileURLToPath(import.meta.url)), "../..")
const repo = resolve(app, "../..")
export const SECRET = "next-demo-test-secret-0123456789abcdef"
const nextBin = join(app, "node_modules/next/dist/bin/next")

function files(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    // next-env.d.ts is written by `next build` itself: no source.
    if (["node_modules", ".next", "test", ".data", "next-env.d.ts"].includes(entry.name)) return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? files(path) : [path]
  })
}

/** What a build is made of: the app's sources, the Qwik demo's server modules, the packages' dist. */
function sourceHash(): string {
  const hash = createHash("sha256")
  const dirs = [app, join(repo, "apps/demo/src/server"), ...["nextjs", "core", "providers", "xata-adapter"].map((p) => join(repo, "packages", p, "dist"))]
  for (const file of dirs.flatMap(files).sort()) hash.update(relative(repo, file)).update(readFileSync(file))
  return hash.digest("hex")
}

/** `next build` unless `.next` already holds the build of these very sources. */
export function buildDemo(): void {
  const hash = sourceHash()
  const stamp = join(app, ".next/.demo-hash")
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === hash && existsSync(join(app, ".next/BUILD_ID"))) return
  const build = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: app,
    env: childEnv({}),
    encoding: "utf8",
    timeout: 300_000,
  })
  if (build.status !== 0) throw new Error(`next build failed:\n${build.stdout}\n${build.stderr}`)
  writeFileSync(stamp, hash)
}

/** The child's environment: none of this shell's authlib settings, databases or vitest variables. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = cleanEnv({ NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...extra })
  for (const key of Object.keys(env)) {
    if (/^(AUTH_|WEBAUTH_|VITEST|NODE_OPTIONS$|REDIS_URL$)/.test(key) && !(key in extra)) delete env[key]
    if (key === "DATABASE_URL" && !(key in extra)) delete env[key]
  }
  return env
}

export interface DemoInstance {
  readonly url: string
  output(): string
  stop(): Promise<void>
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output()}`)
    try {
      // The first request opens the database and starts the inbox and the IdP.
      const res = await fetch(`${url}/api/auth/providers`)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`next start did not answer within 60 s:\n${output()}`)
}

/**
 * `next start` of the build: `strategy` as `AUTH_SESSION_STRATEGY`, `databaseUrl` for a PostgreSQL
 * server (else PGlite in a fresh folder). Killed by `stop()`, or after 5 minutes at the latest.
 */
export async function startDemo(options: { strategy: "jwt" | "database"; databaseUrl?: string }): Promise<DemoInstance> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const data = mkdtempSync(join(tmpdir(), "next-demo-data-"))
  const child = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: app,
    env: childEnv({
      AUTH_SECRET: SECRET,
      AUTH_SESSION_STRATEGY: options.strategy,
      DEMO_DATA_DIR: data,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    }),
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const guard = setTimeout(() => child.kill("SIGKILL"), 300_000)
  guard.unref()
  const stop = async () => {
    clearTimeout(guard)
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r))
      child.kill("SIGTERM")
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))])
      if (child.exitCode === null) child.kill("SIGKILL")
    }
    rmSync(data, { recursive: true, force: true })
  }
  try {
    await waitUntilUp(url, child, () => output)
  } catch (err) {
    await stop()
    throw err
  }
  return { url, output: () => output, stop }
}
