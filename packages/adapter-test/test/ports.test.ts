import { describe, expect, it } from "vitest"
import { ADAPTER_PORTS } from "@authlib/core"
import { MemoryAdapter, portCoverage } from "../src/index.js"

describe("portCoverage", () => {
  it("finds every port of the memory adapter complete, the organizations port included", () => {
    const coverage = portCoverage(MemoryAdapter())
    expect(new Set(coverage.complete)).toEqual(new Set([...Object.keys(ADAPTER_PORTS), "organizations"]))
    expect(coverage).toMatchObject({ partial: [], absent: [] })
  })

  it("reports the organizations port implemented in part, with the missing method", () => {
    const { acceptOrganizationInvitation: _, ...partial } = MemoryAdapter()
    expect(portCoverage(partial).partial).toEqual([{ port: "organizations", missing: ["acceptOrganizationInvitation"] }])
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
