/**
 * Entry of `pnpm bench`. Runs every module of `modules` in this one process, pinned to one core
 * with `taskset -c 0` when available (the machine is shared; unpinned WebCrypto timings swing
 * 2-3x). `pnpm bench <name...>` runs only the named modules; BENCH_ROUNDS and BENCH_TIME (ms per
 * task per round) shorten or lengthen a run. `pnpm bench db --scale` runs the database bench on
 * filled tables instead (`db-scale.ts`).
 *
 * To add a bench: write `bench/<name>.ts` with a default-exported `BenchModule` and add it below.
 */
import { spawnSync } from "node:child_process"
import { cpus } from "node:os"
import jwt from "./jwt.js"
import type { BenchModule } from "./lib-bench.js"

const modules: BenchModule[] = [
  jwt,
  (await import("./core.js")).default,
  (await import("./passkey.js")).default,
  (await import("./rate-limit-store.js")).default,
  (await import("./revocation.js")).default,
  (await import("./redis-session.js")).default,
  (await import("./db.js")).default,
  (await import("./two-factor.js")).default,
  (await import("./sso.js")).default,
  (await import("./organizations.js")).default,
  (await import("./nextjs.js")).default,
]

/** Re-runs this script under `taskset -c 0`; returns false when taskset is missing or fails. */
function reexecPinned(): boolean {
  if (process.env.AUTHLIB_BENCH_PINNED || process.platform !== "linux") return false
  const args = ["-c", "0", process.execPath, ...process.execArgv, ...process.argv.slice(1)]
  const child = spawnSync("taskset", args, { stdio: "inherit", env: { ...process.env, AUTHLIB_BENCH_PINNED: "1" } })
  if (child.error) return false
  process.exitCode = child.status ?? 1
  return true
}

async function main(): Promise<void> {
  if (reexecPinned()) return
  // Flags (`--scale`, `--scale-factor=0.1`) are for the modules that read them; the rest name modules.
  const only = process.argv.slice(2).filter((arg) => !arg.startsWith("--"))
  const selected = only.length > 0 ? modules.filter((m) => only.includes(m.name)) : modules
  const options = { rounds: Number(process.env.BENCH_ROUNDS ?? 15), time: Number(process.env.BENCH_TIME ?? 150) }
  const pinned = process.env.AUTHLIB_BENCH_PINNED ? "pinned to core 0 (taskset)" : "not pinned"
  console.log(`authlib bench ${new Date().toISOString()} | node ${process.version} | ${cpus().length} cores (${cpus()[0]?.model.trim()}) | ${pinned}`)
  for (const module of selected) {
    const started = performance.now()
    console.log(`\n=== ${module.name} ===`)
    await module.run(options)
    console.log(`(${module.name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`)
  }
}

await main()
