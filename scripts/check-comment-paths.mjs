#!/usr/bin/env node
/**
 * Every file path named in a comment of the sources exists, so a comment that sends the reader to
 * `kernel/sign-in/issue.ts` or `sessions/principal.ts` cannot outlive a rename. A path counts when
 * it ends in a file extension the repository uses (`.ts`, `.mjs`, `.md`, `.json`, `.sql`, ...) and
 * either has a folder in it or stands alone in backticks (`` `check-layers.mjs` ``; "a `layout.tsx`"
 * names a kind of file, not one file, and is passed by). It is found when it exists relative to:
 *
 * - the commenting file's folder or any folder above it, up to the repository (`./<name>.ts`,
 *   `two-factor/verify.ts` from `capabilities/`, `src/kernel/...` from a package, `packages/...`);
 * - for a path with a folder in it, also a workspace package's root, its `src/`, or a top-level
 *   folder of that (`kernel/`, `capabilities/`), so `sessions/principal.ts` names
 *   `packages/core/src/kernel/sessions/principal.ts`; a bare name is the file's neighbour or sits in
 *   a folder above it (from `scripts/` or `bench/`, also at the top of a package or its `src/`);
 * - with `.js` read as `.ts` (the NodeNext spelling), and a built `dist/<name>.js` or `lib/<name>.js`
 *   as the `src/<name>.ts` it is built from (so a clean clone gives the same answer as a built one).
 *
 * `<name>` and `*` in a path stand for any one folder or file name (`capabilities/<name>/index.ts`).
 * A file of another project (the app a README's quick start builds) is named from `<app>/`
 * (`<app>/src/auth.ts`): there is nothing here to find, so the check passes it by.
 *
 *   node scripts/check-comment-paths.mjs              the repository's sources (SOURCE_ROOTS)
 *   node scripts/check-comment-paths.mjs DIR          the sources below DIR, DIR as the repository
 *   node scripts/check-comment-paths.mjs --self-test  a fixture with a good and a stale path
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")

/** Where the sources are, relative to the repository; `*` is any one folder. */
export const SOURCE_ROOTS = ["packages/*/src", "packages/*/test", "packages/core/browser", "apps/*/src", "apps/*/test", "e2e/*/src", "e2e/*/test", "scripts", "bench"]

/** The workspace's packages: each one's root, `src/` and top-level `src/` folders are bases of every path. */
const PACKAGES = ["packages/*", "apps/*", "e2e/*"]
const SOURCE = /\.(ts|tsx|mts|cts|mjs|cjs|js)$/
const EXTENSIONS = "d\\.ts|ts|tsx|mts|cts|mjs|cjs|js|json|md|sql|yaml|yml|css|html|txt"
/** A path-like word: name characters, `/`, and the `<name>` / `*` placeholders, ending in a known extension. */
const PATH = new RegExp(`(?<![\\w/.:@<>*-])((?:\\.{1,2}/)*[\\w@<>*][\\w@<>*.-]*(?:/[\\w@<>*.-]+)*\\.(?:${EXTENSIONS}))(?![\\w/-])`, "g")

/** The folders below `dir` matching one of `patterns` (relative, `*` = any one folder). */
function expand(dir, patterns) {
  const out = []
  for (const pattern of patterns) {
    let dirs = [dir]
    for (const part of pattern.split("/")) {
      dirs = dirs.flatMap((d) => (part === "*" ? children(d) : [join(d, part)])).filter(isDir)
    }
    out.push(...dirs)
  }
  return out
}

const isDir = (p) => existsSync(p) && statSync(p).isDirectory()
const children = (d) => (isDir(d) ? readdirSync(d).filter((n) => n !== "node_modules" && !n.startsWith(".")).map((n) => join(d, n)) : [])

/** Every source file below `dir` (build output and node_modules left out). */
function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return ["node_modules", "dist", "lib", ".turbo"].includes(name) || name.startsWith(".") ? [] : sourceFiles(path)
    return SOURCE.test(name) ? [path] : []
  })
}

/** The comments of a source file, each with the line it starts on (1-based). */
export function commentsOf(file, text = readFileSync(file, "utf8")) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const seen = new Map()
  const collect = (ranges) => {
    for (const range of ranges ?? []) if (!seen.has(range.pos)) seen.set(range.pos, range)
  }
  const visit = (node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()))
    collect(ts.getTrailingCommentRanges(text, node.getEnd()))
    node.forEachChild(visit)
  }
  collect(ts.getLeadingCommentRanges(text, 0))
  visit(source)
  return [...seen.values()].sort((a, b) => a.pos - b.pos).map((r) => ({ text: text.slice(r.pos, r.end), line: source.getLineAndCharacterOfPosition(r.pos).line + 1 }))
}

/** The paths a comment names, each with its line. */
export function pathsIn(comment) {
  const found = []
  if (comment.text.startsWith("/// <reference")) return found // a compiler directive: the compiler checks its path
  for (const m of comment.text.matchAll(PATH)) {
    const path = m[1]
    const before = comment.text.slice(0, m.index)
    if (/[a-z][a-z0-9+.-]*:\/\/\S*$/i.test(before)) continue // part of a URL
    const quoted = comment.text[m.index - 1] === "`" && comment.text[m.index + path.length] === "`"
    if (!path.includes("/") && !quoted) continue // "Auth.js", "Node.js": a bare name counts only in backticks
    if (!path.includes("/") && /^[A-Z][a-z]/.test(path)) continue // a product, not a kebab-case file
    if (!path.includes("/") && /\b(an?|any|each|every)\s+`$/i.test(before)) continue // "a `layout.tsx`": a kind of file, not one file
    if (path.startsWith("<app>/")) continue // a file of another project (see the header)
    found.push({ path, line: comment.line + before.split("\n").length - 1 })
  }
  return found
}

/** The folders every path may be relative to: each package's root, `src/` and `src/`'s folders. */
function packageBases(repo) {
  const bases = expand(repo, PACKAGES)
  for (const src of expand(repo, PACKAGES.map((p) => `${p}/src`))) bases.push(src, ...children(src).filter(isDir))
  return bases
}

/** The folders a path named in `file` may be relative to (see the header): its own and those above it first. */
function basesFor(repo, file, shared) {
  const bases = []
  for (let d = dirname(file); ; d = dirname(d)) {
    bases.push(d)
    if (d === repo || d === dirname(d)) break
  }
  return [...bases, ...shared]
}

/**
 * Where a bare name (no folder) may be: beside the file or in a folder above it; for a file outside
 * the packages (`scripts/`, `bench/`), also at the top of a package or of its `src/`.
 */
function bareBases(repo, file, bases, shared) {
  const own = bases.slice(0, bases.length - shared.length)
  const inPackage = expand(repo, PACKAGES).some((pkg) => file.startsWith(pkg + sep))
  return inPackage ? own : [...own, ...shared.filter((b) => PACKAGES.some((p) => new RegExp(`^${p.replace("*", "[^/]+")}(/src)?$`).test(relative(repo, b).split(sep).join("/"))))]
}

/** The spellings of a path to look for: itself, `.js` as `.ts`/`.tsx`, a built file as its source. */
function spellings(path) {
  const clean = path.replace(/^(\.\/)+/, "")
  const out = [clean]
  if (/\.(m?js)$/.test(clean)) out.push(clean.replace(/\.js$/, ".ts"), clean.replace(/\.js$/, ".tsx"), clean.replace(/\.mjs$/, ".mts"))
  if (/\.d\.ts$/.test(clean)) out.push(clean.replace(/\.d\.ts$/, ".ts"))
  for (const s of [...out]) if (/(^|\/)(dist|lib)\//.test(s)) out.push(...[s, s.replace(/\.d\.ts$/, ".ts")].map((t) => t.replace(/(^|\/)(dist|lib)\//, "$1src/").replace(/\.js$/, ".ts")))
  return [...new Set(out)]
}

/** Whether `path` (placeholders allowed) names an existing file or folder below `base`. */
function existsBelow(base, path) {
  let current = [base]
  for (const part of path.split("/")) {
    if (part === "..") current = current.map((d) => dirname(d))
    else if (part === ".") continue
    else if (/[<>*]/.test(part)) {
      const pattern = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/<[^>]*>|\*/g, "[^/]+")}$`)
      current = current.flatMap((d) => (isDir(d) ? readdirSync(d).filter((n) => pattern.test(n)).map((n) => join(d, n)) : []))
    } else current = current.map((d) => join(d, part))
    if (current.length === 0) return false
  }
  return current.some((p) => existsSync(p))
}

/**
 * `file:line: "path" ...` for each path named in a comment below `repo` that exists nowhere, and
 * how many paths were checked (a check that finds no path at all proves nothing).
 */
export function stalePaths(repo, roots = SOURCE_ROOTS) {
  const problems = []
  let checked = 0
  const shared = packageBases(repo)
  for (const dir of expand(repo, roots)) {
    for (const file of sourceFiles(dir)) {
      const bases = basesFor(repo, file, shared)
      for (const comment of commentsOf(file)) {
        for (const { path, line } of pathsIn(comment)) {
          checked++
          const where = path.includes("/") ? bases : bareBases(repo, file, bases, shared)
          if (spellings(path).some((s) => where.some((b) => existsBelow(b, s)))) continue
          problems.push(`${relative(repo, file).split(sep).join("/")}:${line}: "${path}" names no file (looked beside the file, in the folders above it and in each package)`)
        }
      }
    }
  }
  return { problems: [...new Set(problems)], checked }
}

function selfTest() {
  const dir = mkdtempSync(join(tmpdir(), "comment-paths-"))
  const file = (path, text) => (mkdirSync(dirname(join(dir, path)), { recursive: true }), writeFileSync(join(dir, path), text))
  try {
    file("packages/core/src/kernel/sessions/principal.ts", "export const p = 1\n")
    file("packages/core/src/capabilities/two-factor/index.ts", "export {}\n")
    file("packages/qwik/src/elsewhere.ts", "export {}\n")
    file(
      "packages/core/src/capabilities/two-factor/verify.ts",
      [
        "/** Asks `sessions/principal.ts` (from src/kernel) and `index.ts` (beside it); see packages/core/src/capabilities/<name>/index.ts. */",
        "// An app's own file: `<app>/src/auth.ts`.",
        '/// <reference path="../node_modules/absent/types.d.ts" />',
        "// Built as dist/kernel/sessions/principal.js; Auth.js and Next.js are products, not files.",
        'const url = "kernel/gone.ts" // a string is not a comment; https://example.com/a/b.ts is a URL',
        "/* The old home was `kernel/sign-in/old-issue.ts`. */",
        "export const v = `sessions/missing.ts ${url}`",
        "// `stale.ts` beside it is gone too; `elsewhere.ts` is another package's, not a neighbour; a `layout.tsx` is a kind of file.",
        "",
      ].join("\n"),
    )
    const { problems: found, checked } = stalePaths(dir, ["packages/*/src"])
    const expected = ['verify.ts:6: "kernel/sign-in/old-issue.ts"', 'verify.ts:8: "stale.ts"', 'verify.ts:8: "elsewhere.ts"']
    const missing = expected.filter((e) => !found.some((f) => f.includes(e)))
    if (missing.length || found.length !== expected.length || checked !== 7) throw new Error(`self-test: expected ${JSON.stringify(expected)} of 7 paths, found ${JSON.stringify(found)} of ${checked}`)
    console.log("comment paths: self-test passed (refuses a stale path, a stale bare name and another package's file named as a neighbour; accepts folder-, src- and kernel-relative paths, placeholders, built paths, app files, URLs and strings)")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const main = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (main && process.argv.includes("--self-test")) selfTest()
else if (main) {
  const repo = resolve(process.argv[2] ?? root)
  const { problems, checked } = stalePaths(repo)
  if (checked === 0) {
    console.error(`comment paths: no path named in any comment below ${repo}: the source roots moved? (SOURCE_ROOTS)`)
    process.exit(1)
  }
  if (problems.length) {
    for (const p of problems) console.error(p)
    console.error(`${problems.length} path(s) named in comments do not exist: point the comment at the file's current path (scripts/check-comment-paths.mjs)`)
    process.exit(1)
  }
  console.log(`comment paths: the ${checked} file paths named in comments exist (${SOURCE_ROOTS.join(", ")})`)
}
