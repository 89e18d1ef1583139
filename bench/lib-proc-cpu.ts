/**
 * CPU time of this process and of its descendants (the servers a bench started), by command name,
 * from `/proc` (Linux; empty elsewhere): what each side of an HTTP run spent per request.
 */
import { readdirSync, readFileSync } from "node:fs"

/** The parent of `pid` (a PostgreSQL backend's parent is its postmaster, whose tree holds every backend), or undefined. */
export function parentOf(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(text.slice(text.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}

/**
 * utime + stime in microseconds, per command name (`node` for this process, `client` for a child
 * node process, `postgres` for every PostgreSQL process), over this process,
 * its descendants and the trees of `roots` (servers that detached, such as a postmaster).
 */
export function processTreeCpu(roots: readonly number[] = []): Map<string, number> {
  const out = new Map<string, number>()
  let entries: string[]
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e))
  } catch {
    return out
  }
  const stats = new Map<number, { ppid: number; comm: string; ticks: number }>()
  for (const pid of entries) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, "utf8")
      const close = text.lastIndexOf(")")
      const comm = text.slice(text.indexOf("(") + 1, close)
      const fields = text.slice(close + 2).split(" ")
      stats.set(Number(pid), { ppid: Number(fields[1]), comm, ticks: Number(fields[11]) + Number(fields[12]) })
    } catch {
      // gone meanwhile
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = stats.get(p)?.ppid ?? 0, hops++) if (p === process.pid || roots.includes(p)) return true
    return false
  }
  const tick = 1e6 / 100 // USER_HZ is 100 on Linux
  for (const [pid, s] of stats) {
    if (!ours(pid)) continue
    // Another node process of ours is a load generator run apart (`client`).
    const name = pid === process.pid ? "node" : s.comm.startsWith("postgres") ? "postgres" : s.comm === "node" ? "client" : s.comm
    out.set(name, (out.get(name) ?? 0) + s.ticks * tick)
  }
  return out
}

/** Per-name CPU microseconds between two snapshots, divided by `count`. */
export function cpuPer(before: Map<string, number>, after: Map<string, number>, count: number): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [name, value] of after) out[name] = (value - (before.get(name) ?? 0)) / count
  return out
}
