/**
 * The registry is a value the config carries (`kernel/registry/carried.ts`), not an installed
 * global: importing core runs nothing that matters (`sideEffects: false`), per-request state lives
 * in the request's context (`ctx.memo`), and the kernel resolves only a config that carries one.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../../src/kernel/config/resolve.js"
import { configured, forApp, forRequests, REGISTRY, withCapabilities } from "../../../src/registry.js"
import { carriedRegistry } from "../../../src/kernel/registry/carried.js"
import type { AuthConfig } from "../../../src/index.js"
import { config } from "../../helpers/harness.js"

const core = join(import.meta.dirname, "../../..")
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })
const sources = files(join(core, "src")).map((path) => ({ path: relative(core, path), text: readFileSync(path, "utf8") }))

describe("the registry the config carries", () => {
  it("core declares no side effects, and no source imports a module only to run it", () => {
    expect(JSON.parse(readFileSync(join(core, "package.json"), "utf8")).sideEffects).toBe(false)
    expect(sources.filter(({ text }) => /^import\s+["']/m.test(text)).map(({ path }) => path)).toEqual([])
  })

  it("no module keeps per-request state beside the function signatures (a WeakMap keyed by a request or a context)", () => {
    expect(sources.filter(({ text }) => /WeakMap<\s*(AuthRequest|Request|Context|FlowContext)\b/.test(text)).map(({ path }) => path)).toEqual([])
  })

  it("the kernel refuses a config that carries none: only the entries (or withCapabilities) give one", () => {
    expect(() => resolveConfig(config())).toThrow("the config carries no capability registry")
  })

  it("the entries give each config object one copy with the full registry, so it is resolved once", () => {
    const app = config()
    expect(configured(app)).toBe(configured(app))
    expect(resolveConfig(configured(app)).registry).toBe(REGISTRY)
    // The app's object is never written: the registry is on the copy.
    expect(Object.getOwnPropertySymbols(app)).toEqual([])
  })

  it("a config with its own registry keeps it through the entries", () => {
    const own = withCapabilities(config(), (name) => name !== "two-factor")
    expect(configured(own)).toBe(own)
    expect(resolveConfig(own).registry.capabilities.map((c) => c.name)).toEqual(REGISTRY.capabilities.map((c) => c.name).filter((name) => name !== "two-factor"))
    expect(resolveConfig(own).registry.actions.has("two-factor")).toBe(false)
  })

  it("the entries' server functions hand on the config with its registry, in the place each takes it (methods they carry too)", async () => {
    const app = config()
    const seen = async (_request: Request, config: AuthConfig) => config
    const { request } = forRequests({ request: Object.assign(seen, { result: seen }) })
    const { forApp: appFn } = forApp({ forApp: async (config: AuthConfig, userId: string) => [config, userId] as const })
    expect(request.name).toBe("seen")
    expect(carriedRegistry(await request(new Request("http://localhost/"), app))).toBe(REGISTRY)
    expect(carriedRegistry(await request.result(new Request("http://localhost/"), app))).toBe(REGISTRY)
    const [given, userId] = await appFn(app, "user-1")
    expect([carriedRegistry(given), userId]).toEqual([REGISTRY, "user-1"])
  })
})
