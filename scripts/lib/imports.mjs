/**
 * The import graph of a source tree as the repository's checks read it: TypeScript's own
 * pre-processor (import/export-from, `import()` in code and types, `require`), relative specifiers
 * resolved the NodeNext way (`./x.js` -> `./x.ts`). Shared by check-import-cycles.mjs and check-layers.mjs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import ts from "typescript"

const SOURCE = /\.(ts|tsx|mts)$/

/** Every source file below `dir` (declaration files and node_modules left out). */
export function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : sourceFiles(path)
    return SOURCE.test(name) && !name.endsWith(".d.ts") ? [path] : []
  })
}

/** The file a relative specifier names, if it is a source file of the tree. */
export function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith(".")) return undefined
  const base = resolve(dirname(from), specifier)
  const stem = base.replace(/\.(js|jsx|mjs|ts|tsx|mts)$/, "")
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, "index.ts"), join(base, "index.tsx")]
  return candidates.find((c) => SOURCE.test(c) && existsSync(c) && statSync(c).isFile())
}

/** The source files `file` imports (type-only imports included). */
export function importsOf(file) {
  const targets = new Set()
  for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
    const target = resolveSpecifier(file, fileName)
    if (target) targets.add(target)
  }
  return [...targets]
}
