/**
 * The third-party packer: the third-party packages that installing some workspace packages pulls
 * in, taken from what pnpm already put on this disk (nothing is downloaded): each package's
 * `dependencies`, `optionalDependencies` (when installed) and required `peerDependencies` (npm
 * installs those too), followed transitively, each found the way Node finds it from the requiring package's real folder
 * (pnpm's `.pnpm/<id>/node_modules` layout). Workspace packages (`@authlib/*`) are followed but not
 * packed: the release publishes them.
 */
import { execFileSync } from "node:child_process"
import { gzipSync } from "node:zlib"
import { existsSync, readFileSync, realpathSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import type { Manifest } from "./registry.js"

/** The fields of a `package.json` the packer and the release copy read. */
export interface PackageJson extends Manifest {
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

/** One packed package: what `Registry.add` takes, and where it came from. */
export interface Packed {
  manifest: PackageJson
  /** Where it was packed from. */
  dir: string
  tarball: Buffer
}

/** The `package.json` in `dir`, parsed. */
export const readPackageJson = (dir: string) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson

/** The real folder of `name` as Node would find it from `fromDir`, or undefined. */
export function findInstalled(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== "node_modules") {
      const candidate = join(dir, "node_modules", name)
      if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate)
    }
    if (dirname(dir) === dir) return undefined
  }
}

/**
 * An installed package folder as an npm tarball: its files under `package/`, gzip. The folder is
 * what the package's own tarball unpacked to, so this is the published content. Hard links (pnpm's
 * store shares identical files) are stored as files.
 */
export function pack(dir: string): Buffer {
  const tar = execFileSync("tar", ["-C", dir, "--exclude=./node_modules", "--hard-dereference", "--owner=0", "--group=0", "--transform", "s,^\\.,package,", "-cf", "-", "."], {
    maxBuffer: 512 * 1024 * 1024,
  })
  return gzipSync(tar, { level: 1 }) // fast: PGlite is 27 MB
}

/**
 * What the packages in `roots` (folders) need from outside the workspace, plus `extra` (each a name
 * resolved from a folder: peers and type packages a scratch project installs), packed.
 */
export function thirdPartyClosure(roots: string[], extra: Array<{ name: string; from: string }> = []): Packed[] {
  const packed = new Map<string, Packed>()
  const visited = new Set<string>()
  const queue: Array<{ name: string; from: string; optional: boolean }> = extra.map((e) => ({ ...e, optional: false }))
  const follow = (dir: string) => {
    const manifest = readPackageJson(dir)
    for (const name of Object.keys(manifest.dependencies ?? {})) queue.push({ name, from: dir, optional: false })
    for (const name of Object.keys(manifest.optionalDependencies ?? {})) queue.push({ name, from: dir, optional: true })
    for (const name of Object.keys(manifest.peerDependencies ?? {})) {
      if (!manifest.peerDependenciesMeta?.[name]?.optional) queue.push({ name, from: dir, optional: false })
    }
  }
  for (const root of roots) follow(realpathSync(root))
  while (queue.length > 0) {
    const { name, from, optional } = queue.shift()!
    const dir = findInstalled(name, from)
    if (!dir) {
      if (optional) continue
      throw new Error(`${name} (needed by ${from}) is not installed in this workspace: add it or leave it out`)
    }
    if (visited.has(dir)) continue
    visited.add(dir)
    const manifest = readPackageJson(dir)
    if (!manifest.name.startsWith("@authlib/")) packed.set(`${manifest.name}@${manifest.version}`, { manifest, dir, tarball: pack(dir) })
    follow(dir)
  }
  return [...packed.values()]
}
