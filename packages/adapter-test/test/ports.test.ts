import { describe, expect, it } from "vitest"
import { ADAPTER_PORTS } from "@authlib/core"
import { MemoryAdapter, portCoverage } from "../src/index.js"

describe("portCoverage", () => {
  it("finds every port of the memory adapter complete", () => {
    expect(portCoverage(MemoryAdapter())).toEqual({ complete: Object.keys(ADAPTER_PORTS), partial: [], absent: [] })
  })

  it("reports a port implemented in part, with the missing methods", () => {
    const { deleteSessionsByUserId: _, ...partial } = MemoryAdapter()
    const coverage = portCoverage(partial)
    expect(coverage.partial).toEqual([{ port: "sessionListing", missing: ["deleteSessionsByUserId"] }])
    expect(coverage.complete).not.toContain("sessionListing")
  })

  it("reports a port without any of its methods as absent, not partial", () => {
    const { getUserSessionEpoch: _a, incrementUserSessionEpoch: _b, ...without } = MemoryAdapter()
    expect(portCoverage(without).absent).toEqual(["sessionEpochs"])
    expect(portCoverage(without).partial).toEqual([])
  })
})
