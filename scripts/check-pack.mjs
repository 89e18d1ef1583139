#!/usr/bin/env node
/**
 * What `npm publish` would ship, per package (`npm pack --dry-run --json --ignore-scripts`, run
 * after the build): LICENSE, README.md and package.json, every file the `exports` map, `main`,
 * `types` and `bin` point at, and a `prepack` script that builds (so an unbuilt checkout never
 * packs an empty tarball). Then each tarball goes through `@arethetypeswrong/cli` with the ESM-only
 * profile (types resolve for `node16` and `bundler` on every entry; `require` is not offered).
 * Source maps: every `sourceMappingURL` comment names a map in the tarball (or inline data), and
 * every source a shipped map lists is either inlined (`sourcesContent`) or a file in the tarball:
 * a bundler that follows a map to a missing source warns once per module (Vite dev printed 172
 * lines for the Qwik quick start).
 * Run by `pnpm test` after the packages are built.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, posix } from "node:path"

const root = join(import.meta.dirname, "..")
const problems = []

/** Every path string in an exports map (conditions nested at any depth). */
function targets(value) {
  if (typeof value === "string") return [value]
  if (value && typeof value === "object") return Object.values(value).flatMap(targets)
  return []
}

for (const name of readdirSync(join(root, "packages"))) {
  const dir = join(root, "packages", name)
  if (!existsSync(join(dir, "package.json"))) continue
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  if (pkg.private) continue
  const [report] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }))
  const files = new Set(report.files.map((f) => f.path))
  const wanted = ["LICENSE", "README.md", "package.json", ...targets(pkg.exports), ...targets(pkg.main), ...targets(pkg.types), ...targets(pkg.bin)]
  for (const file of wanted.map((f) => f.replace(/^\.\//, ""))) if (!files.has(file)) problems.push(`${pkg.name}: the tarball lacks ${file}`)
  if (!/\bbuild\b/.test(pkg.scripts?.prepack ?? "")) problems.push(`${pkg.name}: no "prepack" script that builds`)
  problems.push(...sourceMapProblems(dir, pkg.name, files))
  problems.push(...typesProblems(dir, pkg))
}

/**
 * What a tool following the tarball's source maps would not find: a `sourceMappingURL` (last one of
 * a `.js`, `.mjs` or `.d.ts` file) naming a file the tarball lacks, a map that does not parse, or a
 * map source with neither inline content nor its file in the tarball. `files` are the tarball's
 * paths (relative, `/`-separated), read from the package folder they are packed from.
 */
function sourceMapProblems(dir, name, files) {
  const out = []
  for (const file of files) {
    if (!/\.(m?js|d\.ts)$/.test(file)) continue
    const url = [...readFileSync(join(dir, file), "utf8").matchAll(/^\/[/*][#@] sourceMappingURL=(\S+?)(?:\s*\*\/)?\s*$/gm)].pop()?.[1]
    if (url && !url.startsWith("data:") && !files.has(posix.join(posix.dirname(file), url))) out.push(`${name}: ${file} names the source map ${url}, which the tarball lacks`)
  }
  for (const file of files) {
    if (!file.endsWith(".map")) continue
    let map
    try {
      map = JSON.parse(readFileSync(join(dir, file), "utf8"))
    } catch {
      out.push(`${name}: ${file} is not a source map (JSON)`)
      continue
    }
    const root = posix.join(posix.dirname(file), map.sourceRoot ?? "")
    const missing = (map.sources ?? []).filter((source, i) => typeof map.sourcesContent?.[i] !== "string" && !files.has(posix.join(root, source)))
    if (missing.length) out.push(`${name}: ${file} points to sources neither inlined nor in the tarball: ${missing.join(", ")}`)
  }
  return out
}

/** `attw` on the packed tarball; entries that are not modules (`./schema.sql`) are left out. */
function typesProblems(dir, pkg) {
  const out = mkdtempSync(join(tmpdir(), "authlib-pack-"))
  try {
    const [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", out], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }))
    const nonModules = Object.keys(pkg.exports ?? {}).filter((k) => /\.(sql|css|txt)$/.test(k)).map((k) => k.replace(/^\.\//, ""))
    const args = [join(out, packed.filename), "--profile", "esm-only", "--ignore-rules", "cjs-resolves-to-esm", "--format", "ascii", ...(nonModules.length ? ["--exclude-entrypoints", ...nonModules] : [])]
    execFileSync(join(root, "node_modules/.bin/attw"), args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    return []
  } catch (err) {
    return [`${pkg.name}: @arethetypeswrong/cli found problems:\n${err.stdout ?? err.message}`]
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

if (problems.length) {
  for (const p of problems) console.error(p)
  process.exit(1)
}
console.log("pack check: every package ships LICENSE, README.md and every file its exports, main, types and bin name; its source maps resolve inside the tarball; types resolve (attw, ESM-only)")
