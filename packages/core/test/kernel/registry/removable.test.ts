/**
 * A capability is one folder plus its registry line (and its public names in the entries): without
 * them, no code of the package names it and the package still type-checks. Shown for the newest
 * capability, two-factor sign-in, in memory (the compiler reads the sources with the folder hidden
 * and those lines left out).
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, sep } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const core = join(import.meta.dirname, "..", "..", "..")
const src = join(core, "src")
const folder = join(src, "capabilities", "two-factor")
/** The lines of the registry and the entries that name the capability (its import, its list entry, its exports). */
const ENTRIES: Record<string, (line: string) => boolean> = {
  [join(src, "registry.ts")]: (line) => line.includes("/two-factor/") || line.trim() === "twoFactor,",
  // The entries' imports of the capability's modules, and the names they export from them (bound to the registry).
  // The root's exports are one line each, with a one-line TSDoc that names the capability (so its hover text reaches editors).
  [join(src, "index.ts")]: (line) => line.includes("./capabilities/two-factor/") || /two-?factor|totp|RecentAuthentication/i.test(line),
  [join(src, "internal.ts")]: (line) => line.includes("./capabilities/two-factor/") || /\btwoFactor[A-Z]\w*\)$/.test(line),
  // The typed map of server functions: the capability's import and its spread, each on its own line.
  [join(src, "server-functions.ts")]: (line) => line.includes("./capabilities/two-factor/") || line.trim() === "...twoFactorFunctions,",
  // The Auth.js-shaped subpaths re-export the root's names: the capability's on lines of their own.
  [join(src, "errors.ts")]: (line) => /two-?factor/i.test(line),
  [join(src, "adapters.ts")]: (line) => /two-?factor/i.test(line),
  // The Node entry's twins of the root's server functions: the capability's on lines of their own.
  [join(src, "node", "index.ts")]: (line) => /two-?factor|totp|RecentAuthentication/i.test(line),
}

const BROWSER_ENTRY = join(src, "passkey.ts")
const hidden = (path: string) => path === folder || path.startsWith(folder + sep)
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return hidden(path) ? [] : statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : []
  })
const read = (path: string): string => {
  const text = readFileSync(path, "utf8")
  const drop = ENTRIES[path]
  return drop ? text.split("\n").filter((line) => !drop(line)).join("\n") : text
}
/** `text` without its comments (what the code names, not what it explains). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1")

describe("the two-factor capability", () => {
  it("is named by no code outside its folder but its registry line and its entry exports", () => {
    // The browser entry (`src/passkey.ts`, ceremonies run in the page) imports nothing of the package: it
    // names the capability's route and exports its browser half, an entry like the root's exports.
    const naming = sources(src).filter((path) => path !== BROWSER_ENTRY && /two-?factor/i.test(code(read(path)))).map((path) => relative(src, path))
    expect(naming).toEqual([])
  })

  it("can be left out: the package type-checks without its folder and those lines", () => {
    const config = ts.getParsedCommandLineOfConfigFile(join(core, "tsconfig.build.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!
    const options = { ...config.options, noEmit: true }
    const host = ts.createCompilerHost(options)
    const fileExists = host.fileExists.bind(host)
    host.fileExists = (path) => !hidden(path) && fileExists(path)
    const readFile = host.readFile.bind(host)
    host.readFile = (path) => (hidden(path) ? undefined : ENTRIES[path] ? read(path) : readFile(path))
    const program = ts.createProgram(config.fileNames.filter((path) => !hidden(path)), options, host)
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${relative(core, d.file.fileName)}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`)
    expect(problems).toEqual([])
  }, 120_000)
})
