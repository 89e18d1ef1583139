/**
 * An app that only wants `MemoryAdapter` installs `@authlib/adapter-test` without `vitest`: the
 * peer is optional, and the `./memory-adapter` subpath never imports it. Each import runs in a child
 * Node process (on the built package, through its `exports`) where importing `vitest` throws.
 */
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const run = promisify(execFile)
const root = join(dirname(fileURLToPath(import.meta.url)), "..")

/** Runs `code` as an ES module in `root` (so `@authlib/adapter-test` resolves through its own exports) with vitest made unimportable. */
const withoutVitest = (code: string) =>
  run(process.execPath, ["--import", "./test/no-vitest.mjs", "--input-type=module", "-e", code], { cwd: root, timeout: 30_000 }).then(
    ({ stdout }) => ({ ok: true, out: stdout }),
    (err: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${err.stdout ?? ""}${err.stderr ?? ""}` }),
  )

describe("MemoryAdapter without vitest", () => {
  it("vitest is an optional peer dependency", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> }
    expect(pkg.peerDependencies?.vitest).toBeDefined()
    expect(pkg.peerDependenciesMeta?.vitest).toEqual({ optional: true })
  })

  it("the ./memory-adapter subpath loads and works where importing vitest throws", async () => {
    const result = await withoutVitest(`
      const { MemoryAdapter, createMemoryStore } = await import("@authlib/adapter-test/memory-adapter")
      const store = createMemoryStore()
      const adapter = MemoryAdapter(store)
      await adapter.createUser({ id: "u1", email: "ada@example.com", emailVerified: null })
      console.log(JSON.stringify([await adapter.getUserByEmail("ada@example.com"), store.users.size]))
    `)
    expect(result.out).toBe(`${JSON.stringify([{ id: "u1", name: null, email: "ada@example.com", emailVerified: null, image: null }, 1])}\n`)
    expect(result.ok).toBe(true)
  })

  it("the hook bites: the package's root entry (the suite) does import vitest", async () => {
    const result = await withoutVitest(`await import("@authlib/adapter-test")`)
    expect(result.ok).toBe(false)
    expect(result.out).toMatch(/vitest imported by file:\/\/\S+\/dist\//)
  })
})
