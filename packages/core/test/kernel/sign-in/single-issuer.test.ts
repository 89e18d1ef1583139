/**
 * Design rules (design.md, style.md): exactly one place issues a session, and one seam chooses the
 * strategy. A strategy's `issue` is called from kernel/sign-in/complete.ts only (the end of every
 * sign-in, from `issueSession` or from a held sign-in's completion); nothing outside the two
 * strategy files asks which strategy is on; flows and routes never touch a strategy's insides.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const src = join(import.meta.dirname, "../../../src")

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })
}

describe("completeSignIn is the only caller of a session strategy's issue step", () => {
  it("`.issue(req, ctx, ...)` is called only from kernel/sign-in/complete.ts", () => {
    const callers = files(src)
      .filter((path) => /\.issue\(req, ctx\b/.test(readFileSync(path, "utf8")))
      .map((path) => relative(src, path))
    expect(callers).toEqual(["kernel/sign-in/complete.ts"])
  })

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
