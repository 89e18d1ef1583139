/**
 * The release path (`pnpm version-packages` = `changeset version`, `pnpm release` = build, then
 * `changeset publish`) run on a copy of the workspace, so that versioning, changelogs and git tags
 * never touch the checkout. The copy holds what a release reads: the root `package.json`,
 * `pnpm-workspace.yaml`, `.changeset/` and, per package, its `package.json` and the files it
 * publishes (built already: turbo builds every package before this test, as `pnpm release` does).
 */
import { execFile } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { promisify } from "node:util"
import { cleanEnv } from "@authlib/e2e-kit/clean-env"
import { readPackageJson, type PackageJson } from "@authlib/e2e-kit/third-party"

const exec = promisify(execFile)

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const

export interface WorkspaceCopy {
  /** The copy's root. */
  readonly dir: string
  /** Publishable package name -> its folder in the copy. */
  readonly packages: Map<string, string>
  manifest(name: string): PackageJson
}

const GIT_ENV = { GIT_AUTHOR_NAME: "release test", GIT_AUTHOR_EMAIL: "release@example.invalid", GIT_COMMITTER_NAME: "release test", GIT_COMMITTER_EMAIL: "release@example.invalid", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" }

export async function git(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec("git", args, { cwd: dir, env: cleanEnv(GIT_ENV), timeout: 30_000 })
  return stdout
}

/**
 * Copies the workspace at `repo` into `dest` for a release: publishable packages under `packages/`
 * (their `package.json` and `files`), with `node_modules/@authlib/*` links between the copies (pnpm
 * publish reads a `workspace:` dependency's version there), and the changesets CLI linked at the root
 * (the changelog generator `.changeset/config.json` names is resolved from there). A `workspace:`
 * dependency on a private package (the e2e kit the tests use) links to its folder in the checkout:
 * pnpm publish reads its version there, as in the real workspace. Then `git init`
 * and a first commit: `changeset publish` tags what it publishes.
 */
export async function copyWorkspace(repo: string, dest: string): Promise<WorkspaceCopy> {
  mkdirSync(dest, { recursive: true })
  for (const file of ["package.json", "pnpm-workspace.yaml"]) cpSync(join(repo, file), join(dest, file))
  cpSync(join(repo, ".changeset"), join(dest, ".changeset"), { recursive: true })
  mkdirSync(join(dest, "node_modules"))
  symlinkSync(join(repo, "node_modules", "@changesets"), join(dest, "node_modules", "@changesets"))

  const packages = new Map<string, string>()
  for (const entry of readdirSync(join(repo, "packages"))) {
    const source = join(repo, "packages", entry)
    if (!existsSync(join(source, "package.json"))) continue
    const manifest = readPackageJson(source) as PackageJson & { private?: boolean; files?: string[] }
    if (manifest.private) continue
    const target = join(dest, "packages", entry)
    mkdirSync(target, { recursive: true })
    for (const file of ["package.json", "README.md", "LICENSE", "CHANGELOG.md", ...(manifest.files ?? [])]) {
      if (!file.startsWith("!") && existsSync(join(source, file))) cpSync(join(source, file), join(target, file), { recursive: true })
    }
    packages.set(manifest.name, target)
  }
  for (const [name, dir] of packages) {
    const manifest = readPackageJson(dir)
    const source = join(repo, "packages", relative(join(dest, "packages"), dir))
    for (const field of DEPENDENCY_FIELDS) {
      for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
        if (!range.startsWith("workspace:")) continue
        const installed = join(source, "node_modules", dependency)
        const linked = packages.get(dependency) ?? (existsSync(installed) ? realpathSync(installed) : undefined)
        if (!linked) throw new Error(`${name}: ${dependency} (${range}) is neither published nor installed in the workspace`)
        const link = join(dir, "node_modules", dependency)
        mkdirSync(join(link, ".."), { recursive: true })
        if (!existsSync(link)) symlinkSync(relative(join(link, ".."), linked), link)
      }
    }
  }
  writeFileSync(join(dest, ".gitignore"), "node_modules\n")
  await git(dest, "init", "--quiet", "--initial-branch=main")
  await git(dest, "add", "--all")
  await git(dest, "commit", "--quiet", "--message", "workspace as of the test")
  return { dir: dest, packages, manifest: (name) => readPackageJson(packages.get(name)!) }
}

/** Pending changesets in the copy (`.changeset/*.md` but its README). */
export const pendingChangesets = (copy: WorkspaceCopy) =>
  readdirSync(join(copy.dir, ".changeset")).filter((f) => f.endsWith(".md") && f.toLowerCase() !== "readme.md")

/** Runs the changesets CLI the workspace has installed (`changeset <args>`) in the copy. */
export async function changeset(repo: string, copy: WorkspaceCopy, args: string[], env: Record<string, string> = {}): Promise<string> {
  const cli = join(repo, "node_modules", "@changesets", "cli", "bin.js")
  try {
    const { stdout, stderr } = await exec("node", [cli, ...args], { cwd: copy.dir, env: cleanEnv({ ...env, NO_COLOR: "1", FORCE_COLOR: "0" }), timeout: 240_000, maxBuffer: 16 * 1024 * 1024 })
    return stdout + stderr
  } catch (err) {
    const { stdout = "", stderr = "" } = err as { stdout?: string; stderr?: string }
    throw new Error(`changeset ${args.join(" ")} failed:\n${stdout}${stderr}`)
  }
}

/** Writes a changeset into the copy (what `pnpm changeset` would) and commits it. */
export async function addChangeset(copy: WorkspaceCopy, file: string, bumps: Record<string, "patch" | "minor" | "major">, summary: string): Promise<void> {
  const front = Object.entries(bumps).map(([name, bump]) => `"${name}": ${bump}`).join("\n")
  writeFileSync(join(copy.dir, ".changeset", file), `---\n${front}\n---\n\n${summary}\n`)
  await git(copy.dir, "add", "--all")
  await git(copy.dir, "commit", "--quiet", "--message", `changeset: ${file}`)
}

/** Commits what `changeset version` changed (as the maintainer would before `pnpm release`). */
export async function commitAll(copy: WorkspaceCopy, message: string): Promise<void> {
  await git(copy.dir, "add", "--all")
  await git(copy.dir, "commit", "--quiet", "--allow-empty", "--message", message)
}

export const readText = (path: string) => readFileSync(path, "utf8")
