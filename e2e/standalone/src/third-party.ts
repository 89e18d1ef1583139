/**
 * The third-party packages a set of workspace packages needs at install time, taken from what pnpm
 * already installed here (never downloaded): their `dependencies`, transitively, each found the way
 * Node resolves it from the requiring package's real folder, and packed into an npm tarball
 * (`package/` prefix, as `npm pack` makes it).
 */
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, realpathSync } from "node:fs"
import { basename, dirname, join } from "node:path"

export interface PackedPackage {
  manifest: { name: string; version: string; [key: string]: unknown }
  tarball: Buffer
}

function readManifest(dir: string) {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackedPackage["manifest"] & { dependencies?: Record<string, string> }
}

/** The installed folder of `name` as Node would find it from `fromDir` (a package's real folder). */
export function resolvePackageDir(name: string, fromDir: string): string {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== "node_modules") {
      const candidate = join(dir, "node_modules", name)
      if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate)
    }
    if (dirname(dir) === dir) throw new Error(`${name} is not installed where ${fromDir} can see it`)
  }
}

/** A folder as an npm tarball (files under `package/`), with gzip. */
export function tarballOf(dir: string): Buffer {
  return execFileSync("tar", ["-C", dir, "--exclude=./node_modules", "--transform", "s,^\\.,package,", "-czf", "-", "."], { maxBuffer: 512 * 1024 * 1024 })
}

/**
 * Every third-party package `roots` (folders of workspace packages) depend on, transitively, plus
 * `extra` names resolved from `extraFrom` (peers and type packages a scratch project installs).
 * Workspace packages (`@authlib/*`) are left out: they are published for real.
 */
export function thirdPartyClosure(roots: string[], extra: string[] = [], extraFrom = roots[0]!): PackedPackage[] {
  const seen = new Map<string, PackedPackage>()
  const queue: Array<{ name: string; from: string }> = []
  const enqueueDeps = (dir: string) => {
    for (const name of Object.keys(readManifest(dir).dependencies ?? {})) queue.push({ name, from: dir })
  }
  for (const root of roots) enqueueDeps(root)
  for (const name of extra) queue.push({ name, from: extraFrom })
  while (queue.length > 0) {
    const { name, from } = queue.shift()!
    if (name.startsWith("@authlib/")) continue
    const dir = resolvePackageDir(name, from)
    const manifest = readManifest(dir)
    const key = `${manifest.name}@${manifest.version}`
    if (seen.has(key)) continue
    seen.set(key, { manifest, tarball: tarballOf(dir) })
    enqueueDeps(dir)
  }
  return [...seen.values()]
}
