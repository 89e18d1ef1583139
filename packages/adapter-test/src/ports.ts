/**
 * Adapter ports (`ADAPTER_PORTS` of `@authlib/core`): an adapter implements a port's methods as a
 * unit, since core uses a port only when every method of it is there. Each port's suites run when
 * the adapter implements the whole port; one implemented in part is listed as skipped with the
 * methods it lacks (core will not use it, so a feature stays off).
 */
import { describe } from "vitest"
import { ADAPTER_PORTS, type Adapter, type AdapterPortName } from "@authlib/core"

/** Which ports `adapter` implements fully, which in part (with the missing methods), and which not at all. */
export interface PortCoverage {
  complete: AdapterPortName[]
  partial: { port: AdapterPortName; missing: string[] }[]
  absent: AdapterPortName[]
}

export function portCoverage(adapter: Adapter): PortCoverage {
  const coverage: PortCoverage = { complete: [], partial: [], absent: [] }
  for (const [port, methods] of Object.entries(ADAPTER_PORTS) as [AdapterPortName, readonly string[]][]) {
    const missing = methods.filter((m) => typeof (adapter as Record<string, unknown>)[m] !== "function")
    if (missing.length === 0) coverage.complete.push(port)
    else if (missing.length === methods.length) coverage.absent.push(port)
    else coverage.partial.push({ port, missing })
  }
  return coverage
}

/**
 * Registers `suite` when `adapter` implements `port` as a whole; otherwise lists it as skipped with
 * `reason` and, for a port implemented in part, the methods that keep core from using it.
 */
export function portSuite(adapter: Adapter, port: AdapterPortName, reason: string, suite: () => void): void {
  const partial = portCoverage(adapter).partial.find((p) => p.port === port)
  const title = `${port} port (${ADAPTER_PORTS[port].join(", ")})`
  if (!partial && portCoverage(adapter).complete.includes(port)) describe(title, suite)
  else describe.skip(`${title} (skipped: ${partial ? `the adapter lacks ${partial.missing.join(", ")} of it, so core does not use it` : reason})`, suite)
}
