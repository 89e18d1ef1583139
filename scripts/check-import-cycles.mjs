#!/usr/bin/env node
/**
 * Fails when the source of any package (or app) imports itself in a circle, type-only imports
 * included: a cycle through types today is a cycle through values after the next refactor.
 *
 *   node scripts/check-import-cycles.mjs            every packages/<name>/src and apps/<name>/src
 *   node scripts/check-import-cycles.mjs DIR...     only these source folders
 *   node scripts/check-import-cycles.mjs --self-test  proves it finds a cycle (and accepts none)
 *
 * Imports are read with TypeScript's own pre-processor (import/export-from, `import()` in code and
 * types, `require`); relative specifiers are resolved the NodeNext way (`./<name>.js` -> `./<name>.ts`).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { importsOf, sourceFiles } from "./lib/imports.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
function importGraph(files) {
  return new Map(files.map((file) => [file, importsOf(file)]))
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cycles(graph) {
  let index = 0
  const stack = []
  const state = new Map()
  const found = []
  const visit = (v) => {
    state.set(v, { index, low: index, onStack: true })
    index++
    stack.push(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!state.has(w)) {
        visit(w)
        state.get(v).low = Math.min(state.get(v).low, state.get(w).low)
      } else if (state.get(w).onStack) state.get(v).low = Math.min(state.get(v).low, state.get(w).index)
    }
    if (state.get(v).low !== state.get(v).index) return
    const component = []
    let w
    do {
      w = stack.pop()
      state.get(w).onStack = false
      component.push(w)
    } while (w !== v)
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort())
  }
  for (const v of graph.keys()) if (!state.has(v)) visit(v)
  return found
}

function defaultDirs() {
  return ["packages", "apps"].flatMap((group) => {
    const dir = join(root, group)
    if (!existsSync(dir)) return []
    return readdirSync(dir).map((name) => join(dir, name, "src")).filter((src) => existsSync(src))
  })
}

function check(dirs) {
  let failed = 0
  for (const dir of dirs) {
    for (const component of cycles(importGraph(sourceFiles(dir)))) {
      failed++
      console.error(`import cycle in ${relative(root, dir)}:\n  ${component.map((f) => relative(root, f)).join("\n  ")}`)
    }
  }
  return failed
}

function selfTest() {
  const dir = mkdtempSync(join(tmpdir(), "cycles-"))
  try {
    writeFileSync(join(dir, "a.ts"), 'import type { B } from "./b.js"\nexport type A = B\n')
    writeFileSync(join(dir, "b.ts"), 'export type B = import("./a.js").A | string\n')
    writeFileSync(join(dir, "c.ts"), 'import { x } from "./d.js"\nexport const c = x\n')
    writeFileSync(join(dir, "d.ts"), "export const x = 1\n")
    const found = cycles(importGraph(sourceFiles(dir))).map((c) => c.map((f) => relative(dir, f)))
    if (JSON.stringify(found) !== JSON.stringify([["a.ts", "b.ts"]])) throw new Error(`self-test: expected the a <-> b cycle only, found ${JSON.stringify(found)}`)
    console.log("import-cycle check: self-test passed (finds a type-only cycle, accepts a chain)")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv.includes("--self-test")) selfTest()
else {
  const args = process.argv.slice(2)
  const dirs = args.length ? args.map((a) => resolve(a)) : defaultDirs()
  const failed = check(dirs)
  if (failed) {
    console.error(`${failed} import cycle(s): move the shared part into a module both sides can import`)
    process.exit(1)
  }
  console.log(`import-cycle check: no cycles in ${dirs.length} source folder(s)`)
}
