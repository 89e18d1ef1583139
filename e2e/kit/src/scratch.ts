/**
 * The scratch installer: projects in folders outside the workspace with a `package.json` and some
 * files, installed with plain `npm install` from one registry (their own `.npmrc`, a cache of their
 * own, no global config), as a user would, and type-checked with a given TypeScript.
 */
import { execFile } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { cleanEnv } from "./clean-env.js"

const exec = promisify(execFile)

/** Writes `<dir>/package.json` (private, ESM, plus `manifest`) and `files` (path -> text); returns `dir`. */
export function scratchProject(dir: string, manifest: object, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module", ...manifest }, null, 2))
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), text)
  }
  return dir
}

/**
 * `npm install` in `dir` from `registry` only: the project's `.npmrc` names it, the cache is
 * `cache` (a temporary folder), the global and user configs are empty. `args` go right after
 * `install` (a README's `-D @authlib/qwik ...`).
 */
export async function npmInstall(dir: string, registry: string, cache: string, args: string[] = []): Promise<string> {
  const npmrc = join(dir, ".npmrc")
  writeFileSync(npmrc, `registry=${registry}\n`)
  writeFileSync(join(dir, ".globalnpmrc"), "")
  const npmArgs = ["install", ...args, "--registry", registry, "--cache", cache, "--userconfig", npmrc, "--globalconfig", join(dir, ".globalnpmrc"), "--prefer-offline", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel", "error"]
  try {
    const { stdout, stderr } = await exec("npm", npmArgs, { cwd: dir, env: cleanEnv(), timeout: 180_000, maxBuffer: 16 * 1024 * 1024 })
    return stdout + stderr
  } catch (err) {
    const { stdout = "", stderr = "" } = err as { stdout?: string; stderr?: string }
    throw new Error(`npm install in ${dir} failed:\n${stdout}${stderr}`)
  }
}

/** Top-level packages in `dir/node_modules`, scoped ones as `@scope/name`. */
export function installedPackages(dir: string): string[] {
  const root = join(dir, "node_modules")
  return readdirSync(root)
    .filter((n) => !n.startsWith("."))
    .flatMap((n) => (n.startsWith("@") ? readdirSync(join(root, n)).map((m) => `${n}/${m}`) : [n]))
    .sort()
}

/** The version of `name` installed in `dir/node_modules`. */
export const installedVersion = (dir: string, name: string) => (JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")) as { version: string }).version

/**
 * tsconfigs for a consumer: `moduleResolution` bundler (no emit) and node16 (emits `src/` to
 * `dist/`; `rootDir` named, as TypeScript 7 no longer infers it from the sources). Library checks on
 * (our declarations and the packages they import are checked as installed), but not of TypeScript's
 * own `lib` declarations (a third of the time, and not ours).
 */
export const TSCONFIGS = {
  "tsconfig.bundler.json": JSON.stringify({
    compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "bundler", strict: true, noEmit: true, types: ["node"], skipLibCheck: false, skipDefaultLibCheck: true },
    include: ["src"],
  }),
  "tsconfig.node16.json": JSON.stringify({
    compilerOptions: { target: "ES2022", module: "node16", moduleResolution: "node16", strict: true, rootDir: "src", outDir: "dist", types: ["node"], skipLibCheck: false, skipDefaultLibCheck: true },
    include: ["src"],
  }),
}

/**
 * Runs `tsc -p <config>` in `dir` with the workspace's TypeScript and returns its diagnostics
 * (`file(line,col): error TSxxxx: ...` lines, continuation lines folded in), empty when it passed.
 */
export async function tsc(tscPath: string, dir: string, config: string): Promise<string[]> {
  const result = await exec("node", [tscPath, "-p", config, "--pretty", "false"], { cwd: dir, env: cleanEnv(), timeout: 180_000 }).catch(
    (err: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: err.stdout ?? "", stderr: err.stderr ?? `tsc failed: ${String(err.code)}` }),
  )
  const lines = `${result.stdout}${result.stderr}`.split("\n").filter((l) => l.trim() !== "")
  const diagnostics: string[] = []
  for (const line of lines) {
    if (/^\s/.test(line) && diagnostics.length > 0) diagnostics[diagnostics.length - 1] += `\n${line}`
    else diagnostics.push(line)
  }
  return diagnostics
}

/** A scratch project after `installAndTypecheck`. */
export interface CheckedProject {
  dir: string
  /** Top-level packages after the install. */
  packages: string[]
  /** tsc's diagnostics per tsconfig (empty: passed). */
  diagnostics: Record<string, string[]>
}

/**
 * Writes a scratch project, installs it from `registry` and type-checks it under every `TSCONFIGS`
 * entry at once (node16 emits `dist/`). Returns what the caller asserts on.
 */
export async function installAndTypecheck(options: { dir: string; manifest: object; files: Record<string, string>; registry: string; cache: string; tsc: string }): Promise<CheckedProject> {
  const dir = scratchProject(options.dir, options.manifest, { ...options.files, ...TSCONFIGS })
  await npmInstall(dir, options.registry, options.cache)
  const configs = Object.keys(TSCONFIGS)
  const results = await Promise.all(configs.map((config) => tsc(options.tsc, dir, config)))
  return { dir, packages: installedPackages(dir), diagnostics: Object.fromEntries(configs.map((config, i) => [config, results[i]!])) }
}
