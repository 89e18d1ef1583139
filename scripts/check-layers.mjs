#!/usr/bin/env node
/**
 * Keeps core's layers (packages/core/README.md, "How the code is laid out"), type-only imports
 * included, the way check-import-cycles.mjs keeps cycles out:
 *
 * - `src/kernel/` imports no capability and no entry (`index.ts`, `internal.ts`, `registry.ts`, `node/`),
 *   not even a type (`import type`, `export type ... from`, an `import("...")` type all count);
 * - a capability (`src/capabilities/<name>/`) imports no entry, and another capability only through
 *   that capability's `index.ts`, never its internals;
 * - the units (kernel, each capability, the entries) import each other without a cycle;
 * - no folder imports itself in a circle through other folders (every folder a node, so the
 *   kernel's own folders stay layered too: types <- errors, cookies, security ... <- routes).
 *
 *   node scripts/check-layers.mjs              packages/core/src
 *   node scripts/check-layers.mjs DIR          another source folder laid out the same way
 *   node scripts/check-layers.mjs --self-test  proves each rule refuses what it should
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { importsOf, sourceFiles } from "./lib/imports.mjs"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
/** The unit of a file: "kernel", "capabilities/<name>" or "entry". */
function unitOf(src, file) {
  const parts = relative(src, file).split(sep)
  if (parts[0] === "kernel") return "kernel"
  if (parts[0] === "capabilities" && parts.length > 2) return `capabilities/${parts[1]}`
  return "entry"
}

export function violations(src) {
  const found = []
  const edges = new Map()
  for (const file of sourceFiles(src)) {
    const from = unitOf(src, file)
    for (const target of importsOf(file)) {
      if (!target.startsWith(src)) continue
      const to = unitOf(src, target)
      if (from === to) continue
      const where = `${relative(src, file)} -> ${relative(src, target)}`
      if (from === "kernel") found.push(`the kernel imports ${to === "entry" ? "an entry" : `a capability (${to})`}: ${where}`)
      else if (from.startsWith("capabilities/") && to === "entry") found.push(`${from} imports an entry: ${where}`)
      else if (from.startsWith("capabilities/") && to.startsWith("capabilities/") && relative(join(src, to), target) !== "index.ts")
        found.push(`${from} imports internals of ${to} (only its index.ts is its surface): ${where}`)
      if (!edges.has(from)) edges.set(from, new Set())
      edges.get(from).add(to)
    }
  }
  for (const cycle of unitCycles(edges)) found.push(`units import each other in a circle: ${cycle.join(" -> ")}`)
  for (const cycle of unitCycles(folderEdges(src))) found.push(`folders import each other in a circle: ${cycle.join(" -> ")}`)
  return found
}

/** Folder -> folders its files import (the folder of a file at the root is "."). */
function folderEdges(src) {
  const edges = new Map()
  const folder = (file) => relative(src, dirname(file)) || "."
  for (const file of sourceFiles(src)) {
    for (const target of importsOf(file)) {
      if (!target.startsWith(src) || folder(target) === folder(file)) continue
      if (!edges.has(folder(file))) edges.set(folder(file), new Set())
      edges.get(folder(file)).add(folder(target))
    }
  }
  return edges
}

/** A circle for each back edge of a depth-first walk (none means the graph has no cycle). */
function unitCycles(edges) {
  const cycles = []
  const state = new Map() // 1: on the current path, 2: done
  const walk = (node, path) => {
    state.set(node, 1)
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 1) cycles.push([...path.slice(path.indexOf(next)), node, next])
      else if (!state.has(next)) walk(next, [...path, node])
    }
    state.set(node, 2)
  }
  for (const node of edges.keys()) if (!state.has(node)) walk(node, [])
  return cycles
}

function selfTest() {
  const dir = mkdtempSync(join(tmpdir(), "layers-"))
  const file = (path, text) => (mkdirSync(dirname(join(dir, path)), { recursive: true }), writeFileSync(join(dir, path), text))
  try {
    file("kernel/a.ts", 'import type { X } from "../capabilities/x/index.js"\nexport type A = X\n')
    file("kernel/inline.ts", 'export type I = import("../capabilities/x/index.js").X\n')
    file("kernel/reexport.ts", 'export type { X } from "../capabilities/x/index.js"\n')
    file("capabilities/x/index.ts", 'export type X = string\nexport { y } from "../y/inner.js"\n')
    file("capabilities/y/inner.ts", 'export const y = 1\nimport "../x/index.js"\n')
    file("capabilities/y/index.ts", 'export { y } from "./inner.js"\nimport "../../registry.js"\n')
    file("registry.ts", 'import "./capabilities/x/index.js"\nexport {}\n')
    file("kernel/p/a.ts", 'import type { B } from "../q/b.js"\nexport type A = B\n')
    file("kernel/q/b.ts", 'export type B = import("../p/c.js").C\n')
    file("kernel/p/c.ts", "export type C = string\n")
    const found = violations(dir).map((v) => v.split(":")[0])
    const expected = [
      "the kernel imports a capability (capabilities/x)",
      "capabilities/x imports internals of capabilities/y (only its index.ts is its surface)",
      "capabilities/y imports an entry",
      "units import each other in a circle",
      "folders import each other in a circle",
    ]
    for (const e of expected) if (!found.includes(e)) throw new Error(`self-test: expected "${e}", found ${JSON.stringify(found)}`)
    // Every way of naming a capability's type from the kernel is refused, each on its own line.
    for (const kernelFile of ["kernel/a.ts", "kernel/inline.ts", "kernel/reexport.ts"]) {
      const named = violations(dir).some((v) => v.startsWith("the kernel imports a capability") && v.includes(`${join(kernelFile)} -> `))
      if (!named) throw new Error(`self-test: the type-only import of a capability in ${kernelFile} was not refused`)
    }
    rmSync(dir, { recursive: true, force: true })
    file("kernel/a.ts", "export const a = 1\n")
    file("capabilities/x/index.ts", 'import { a } from "../../kernel/a.js"\nexport const x = a\n')
    file("registry.ts", 'import { x } from "./capabilities/x/index.js"\nexport const r = x\n')
    if (violations(dir).length) throw new Error(`self-test: a clean layout was refused: ${violations(dir).join("; ")}`)
    console.log("layer check: self-test passed (refuses kernel -> capability, types included, internals, entries, unit and folder circles; accepts layers)")
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv.includes("--self-test")) selfTest()
else {
  const src = resolve(process.argv[2] ?? join(root, "packages/core/src"))
  const found = violations(src)
  if (found.length) {
    for (const v of found) console.error(v)
    console.error(`${found.length} layer violation(s): see "How the code is laid out" in packages/core/README.md`)
    process.exit(1)
  }
  console.log(`layer check: ${relative(root, src)} keeps its layers (kernel <- capabilities <- entries)`)
}
