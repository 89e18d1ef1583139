/**
 * Design rule (design.md, style.md): exactly one place issues a session. The strategies' "create"
 * functions may be called from sessions/issue.ts only; flows and routes never touch them.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const src = join(import.meta.dirname, "../../src")

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })
}

describe("issueSession is the only caller of the session strategies' create functions", () => {
  for (const fn of ["createJwtSession", "createDatabaseSession"]) {
    it(`${fn} is called only from sessions/issue.ts`, () => {
      const callers = files(src)
        .filter((path) => new RegExp(`\\b${fn}\\(`).test(readFileSync(path, "utf8").replace(new RegExp(`export (async )?function ${fn}\\(`), "")))
        .map((path) => relative(src, path))
      expect(callers).toEqual(["sessions/issue.ts"])
    })
  }

  it("no flow imports a session strategy or writes the session cookie", () => {
    const flows = files(join(src, "flows")).map((path) => [relative(src, path), readFileSync(path, "utf8")] as const)
    for (const [path, text] of flows) {
      expect(text, path).not.toMatch(/sessions\/(jwt|database)-strategy/)
      expect(text, path).not.toMatch(/cookies\.sessionToken/)
    }
  })
})
