/**
 * Design rules (design.md, style.md): exactly one function issues a session, and one seam chooses
 * the strategy. The first rule is checked on the TypeScript program, not on spellings: every
 * reference the type checker resolves to the seam's `issue` or `replace` (a call, a property read,
 * `s["issue"]`, a destructuring) must sit inside `issue` of kernel/sessions/issuer.ts, and no value
 * of the strategy type may leave its type (a cast, `Object.values`, `Reflect.get`, a spread), which
 * is the only way to reach the members without the checker seeing it. The strategy files export
 * nothing else that writes a session, and the stored-session writers serve the database strategy only.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const src = join(import.meta.dirname, "../../../src")

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })
}

/**
 * A file that only this test sees, beside the real ones in one program: each way around the rule it
 * can think of, so the test shows the walk below finds them (and the rules ignore this file).
 */
const PROBE = join(src, "kernel/sessions/single-issuer-probe.ts")
const PROBE_TEXT = `import type { SessionStrategy } from "./types.js"
declare const s: SessionStrategy
export function detour() {
  const byName = s.issue
  const { replace } = s
  const byKey = s["issue"]
  const cast = (s as any).issue
  const listed = Object.values(s)
  const reflected = Reflect.get(s, "iss" + "ue")
  const spread = { ...s }
  return [byName, replace, byKey, cast, listed, reflected, spread]
}
`

const configPath = join(import.meta.dirname, "../../../tsconfig.json")
const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!
const host = ts.createCompilerHost(parsed.options)
const readSource = host.getSourceFile.bind(host)
host.getSourceFile = (name, ...rest) => (name === PROBE ? ts.createSourceFile(PROBE, PROBE_TEXT, ts.ScriptTarget.ES2022, true) : readSource(name, ...rest))
const program = ts.createProgram([...files(src), PROBE], { ...parsed.options, noEmit: true }, host)
const checker = program.getTypeChecker()
const sources = program.getSourceFiles().filter((f) => f.fileName.startsWith(src))
const fileOf = (node: ts.Node) => relative(src, node.getSourceFile().fileName)
const sourceAt = (path: string) => sources.find((f) => fileOf(f) === path)!
const isProbe = (site: string) => site.startsWith(relative(src, PROBE))

/** The `SessionStrategy` interface's type and its `issue` and `replace` members. */
const seam = (() => {
  const decl = sourceAt("kernel/sessions/types.ts").statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "SessionStrategy")!
  const type = checker.getTypeAtLocation(decl)
  return { symbol: type.symbol, members: new Set(["issue", "replace"].map((name) => type.getProperty(name)!)) }
})()

function resolved(node: ts.Node): ts.Symbol | undefined {
  const symbol = checker.getSymbolAtLocation(node)
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
}

/** The symbol a node names: as the checker resolves it, or (destructuring) the property it takes from its pattern's type. */
function named(node: ts.Node): ts.Symbol | undefined {
  const parent = node.parent
  if (parent && ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === node) {
    const key = parent.propertyName ?? parent.name
    const text = ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : undefined
    return text === undefined ? undefined : checker.getTypeAtLocation(parent.parent).getProperty(text)
  }
  return resolved(node)
}

function walk(visit: (node: ts.Node) => void): void {
  const inner = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return
    visit(node)
    ts.forEachChild(node, inner)
  }
  for (const file of sources) ts.forEachChild(file, inner)
}

/** The nearest enclosing named function, as "file#name" (or "file" at module level). */
function site(node: ts.Node): string {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent)
    if (ts.isFunctionDeclaration(at) && at.name) return `${fileOf(node)}#${at.name.text}`
  return fileOf(node)
}

const isDeclarationName = (node: ts.Node, symbol: ts.Symbol) => (symbol.declarations ?? []).some((d) => (d as ts.NamedDeclaration).name === node)
const isSeamType = (type: ts.Type) => type.symbol === seam.symbol || type.aliasSymbol === seam.symbol

/** Where a value of the strategy type may go: a member read, or a place typed as the strategy itself. */
function keepsType(node: ts.Expression): boolean {
  const parent = node.parent
  if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === node) return true
  // A variable takes the type (its uses are walked in turn); a destructuring names its members (walked by `named`).
  if (ts.isParenthesizedExpression(parent) || (ts.isVariableDeclaration(parent) && parent.initializer === node && !parent.type)) return true
  if (ts.isAsExpression(parent) || ts.isTypeAssertionExpression(parent) || ts.isSatisfiesExpression(parent)) return false
  // An argument: the parameter as declared, before inference (`Reflect.get<T>` would infer the strategy type for `T`).
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.includes(node)) {
    const declared = checker.getResolvedSignature(parent)?.getDeclaration()?.parameters[parent.arguments.indexOf(node)]
    return declared !== undefined && !declared.dotDotDotToken && isSeamType(checker.getTypeAtLocation(declared))
  }
  const target = checker.getContextualType(node)
  return target !== undefined && isSeamType(target)
}

/** Every reference to the seam's `issue` and `replace`, as "file#function: the expression that names it". */
function memberReferences(): string[] {
  const found: string[] = []
  walk((node) => {
    if (!ts.isIdentifier(node) && !ts.isStringLiteralLike(node) && !ts.isPrivateIdentifier(node)) return
    const symbol = named(node)
    if (symbol && seam.members.has(symbol) && !isDeclarationName(node, symbol)) found.push(`${site(node)}: ${node.parent.getText()}`)
  })
  return found
}

const siteOf = (reference: string) => reference.slice(0, reference.indexOf(": "))

/** Values of the strategy type that leave it, as "file#function: the expression they leave through". */
function leaks(): string[] {
  const found: string[] = []
  walk((node) => {
    // Where a value comes from: a name, a call, a member, an await (literals and operators make none of this type).
    if (!(ts.isIdentifier(node) || ts.isCallExpression(node) || ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || ts.isAwaitExpression(node))) return
    if (ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) return
    if (ts.isIdentifier(node) && (node.parent as ts.NamedDeclaration).name === node) return
    if (isSeamType(checker.getTypeAtLocation(node)) && !keepsType(node)) found.push(`${site(node)}: ${node.parent.getText()}`)
  })
  return found
}

describe("one function issues a session (checked on the program's references)", { timeout: 60_000 }, () => {
  it("every reference to the seam's issue or replace is inside kernel/sessions/issuer.ts's `issue`", () => {
    expect([...new Set(memberReferences().filter((s) => !isProbe(s)).map(siteOf))]).toEqual(["kernel/sessions/issuer.ts#issue"])
  })

  it("no value of the strategy type leaves it (cast, spread, Object.values, Reflect.get, ...)", () => {
    expect(leaks().filter((s) => !isProbe(s))).toEqual([])
  })

  it("the walk sees every detour of the probe: by name, destructured, by key; cast, listed, reflected, spread", () => {
    const probe = relative(src, PROBE)
    expect(memberReferences().filter(isProbe)).toEqual([`${probe}#detour: s.issue`, `${probe}#detour: replace`, `${probe}#detour: s["issue"]`])
    expect(leaks().filter(isProbe)).toEqual([`${probe}#detour: s as any`, `${probe}#detour: Object.values(s)`, `${probe}#detour: Reflect.get(s, "iss" + "ue")`, `${probe}#detour: ...s`])
  })

  it("the strategy files export only their strategy (and constants); the stored-session writers serve the database strategy only", () => {
    const exportsOf = (path: string) => checker.getExportsOfModule(checker.getSymbolAtLocation(sourceAt(path))!).map((s) => s.name).sort()
    expect(exportsOf("kernel/sessions/jwt-strategy.ts")).toEqual(["MAX_SESSION_TOKEN_LENGTH", "jwtStrategy"])
    expect(exportsOf("kernel/sessions/database-strategy.ts")).toEqual(["AUTHJS_TOKEN_PREFIX", "databaseStrategy"])
    const record = checker.getSymbolAtLocation(sourceAt("kernel/sessions/database-record.ts"))!
    const writers = new Set(checker.getExportsOfModule(record).filter((s) => ["newRecord", "createSession", "createLinkedSession"].includes(s.name)))
    expect(writers.size).toBe(3)
    const users = new Set<string>()
    walk((node) => {
      const symbol = ts.isIdentifier(node) ? resolved(node) : undefined
      if (symbol && writers.has(symbol) && !isDeclarationName(node, symbol)) users.add(fileOf(node))
    })
    expect([...users].sort()).toEqual(["kernel/sessions/database-record.ts", "kernel/sessions/database-strategy.ts"])
  })
})

describe("the strategy stays behind its seam", () => {
  it("no file outside the two strategies asks which strategy is on", () => {
    const asking = files(src)
      .filter((path) => /strategy\s*[!=]==|[!=]==\s*["'](jwt|database)["']/.test(readFileSync(path, "utf8")))
      .map((path) => relative(src, path))
    expect(asking).toEqual([])
  })

  it("no capability (sign-in flows included) imports a session strategy or writes the session cookie", () => {
    const flows = files(join(src, "capabilities")).map((path) => [relative(src, path), readFileSync(path, "utf8")] as const)
    for (const [path, text] of flows) {
      expect(text, path).not.toMatch(/sessions\/(jwt|database)-strategy/)
      expect(text, path).not.toMatch(/cookies\.sessionToken/)
    }
  })
})
