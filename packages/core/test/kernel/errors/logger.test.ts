import { afterEach, describe, expect, it, vi } from "vitest"
import { createLogger } from "../../../src/kernel/errors/logger.js"

afterEach(() => void vi.restoreAllMocks())

describe("logger", () => {
  it("built-in: error and warn print, debug only with debug: true", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {})
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {})
    createLogger(undefined, false).debug("x")
    expect(debug).not.toHaveBeenCalled()
    createLogger(undefined, true).debug("x", 1)
    expect(debug).toHaveBeenCalledWith("[authlib][debug][x]", 1)
    createLogger(undefined, false).error("SomeError", new Error("boom"))
    expect(String(error.mock.calls[0]![1])).toContain("boom")
  })

  it("a custom logger's missing levels fall back to the console; debug: true is ignored with a logger", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {})
    const errors: string[] = []
    const logger = createLogger({ error: (code) => void errors.push(code) }, true)
    logger.error("E")
    logger.warn("W")
    logger.debug("D")
    expect(errors).toEqual(["E"])
    expect(warn).toHaveBeenCalledOnce()
    expect(debug).not.toHaveBeenCalled()
  })

  it("a custom debug level is always called", () => {
    const seen: string[] = []
    createLogger({ debug: (code) => void seen.push(code) }, false).debug("D")
    expect(seen).toEqual(["D"])
  })

  it("errors with a cause print the cause chain", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {})
    createLogger(undefined, false).error("Wrapped", new Error("outer", { cause: { err: new Error("inner") } }))
    expect(String(error.mock.calls[0]![1])).toMatch(/outer[\s\S]*Caused by: [\s\S]*inner/)
  })
})
