/**
 * Adapter ports (kernel/ports/ports.ts): a capability gets a typed handle of the methods it needs or one
 * refusal naming what is missing, made in one place; no code asserts an adapter method exists.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { adapterMethods, optionalPort, port, PORTS } from "../../../src/kernel/ports/ports.js"
import { ADAPTER_PORTS, MissingAdapterMethods } from "../../../src/index.js"
import { REGISTRY } from "../../../src/registry.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"

const src = join(import.meta.dirname, "../../../src")
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })

describe("adapter ports", () => {
  it("hands out the adapter's methods when all are there, else refuses naming the missing ones (and what else would do)", () => {
    const adapter = memoryAdapter()
    const handle = port({ adapter, registry: REGISTRY }, "sessionEpochs", "Ending sessions")
    expect(typeof handle.incrementUserSessionEpoch).toBe("function")
    const { getAccount: _g, updateAccount: _u, ...rest } = adapter
    const without = { ...rest, listAccountsByUserId: () => [] }
    const err = (() => {
      try {
        adapterMethods(without, ADAPTER_PORTS.accountTokens, { what: "getAccessToken", otherwise: "or JWT sessions with session.providerTokens" })
      } catch (e) {
        return e
      }
    })()
    expect(err).toBeInstanceOf(MissingAdapterMethods)
    expect(err).toMatchObject({ code: "ADAPTER_METHODS_MISSING", cause: { missing: ["updateAccount", "getAccount"] }, message: "getAccessToken needs an adapter with updateAccount, getAccount, or JWT sessions with session.providerTokens" })
    expect(optionalPort({ adapter: without, registry: REGISTRY }, "accountTokens")).toBeUndefined()
    expect(optionalPort({ adapter: undefined, registry: REGISTRY }, "sessionEpochs")).toBeUndefined()
  })

  it("no source asserts that an adapter or one of its methods exists (a non-null assertion on it)", () => {
    // Built from parts, so this file does not match what it looks for.
    const assertion = new RegExp(["adapter", "!|adapter\\??\\.[A-Za-z]+", "!\\("].join(""))
    const asserting = files(src).filter((path) => assertion.test(readFileSync(path, "utf8"))).map((path) => relative(src, path))
    expect(asserting).toEqual([])
  })

  it("MissingAdapterMethods is made in one place", () => {
    const makers = files(src).filter((path) => /new MissingAdapterMethods\(/.test(readFileSync(path, "utf8"))).map((path) => relative(src, path))
    expect(makers).toEqual(["kernel/ports/ports.ts"])
  })
})
