/**
 * The measuring harness shared by every bench module: many short tinybench rounds, each running
 * every task once in turn (so the load of a shared machine hits all of them alike). Per task, a
 * round whose p50 is above 1.25x the task's best p50 was disturbed and is dropped; the median of
 * the rest (by mean) is reported, with the best round beside it.
 */
import { Bench } from "tinybench"

export type Task = (() => Promise<unknown> | unknown) | { fn: () => Promise<unknown> | unknown; beforeEach?: () => Promise<void> | void }

export interface Figures {
  /** Operations per second, from the mean latency of the kept round. */
  ops: number
  /** Latencies in microseconds. */
  mean: number
  p50: number
  p99: number
  /** Relative margin of error of the reported round, in percent. */
  rme: number
  /** Rounds kept of rounds run. */
  kept: number
  rounds: number
  /** The fastest round's mean and p50, in microseconds: the cost on a quiet machine. */
  best: number
  bestP50: number
  /** Every round's p50 in microseconds, in the order run (for ratios paired round by round). */
  roundP50s: number[]
}

export interface MeasureOptions {
  /** Rounds per task. Default 15. */
  rounds?: number
  /** Milliseconds per task per round. Default 150. */
  time?: number
  /** A round whose p50 exceeds this times the task's best p50 is dropped as disturbed. Default 1.25. */
  noise?: number
  /**
   * Run the tasks in reverse order every other round, so a row's position in the round (the heap
   * and caches the previous task leaves) weighs on both sides of a paired ratio alike. Default false.
   */
  alternate?: boolean
}

interface Sample {
  mean: number
  p50: number
  p99: number
  rme: number
}

function median<T>(items: T[], key: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b))
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

async function runRound(tasks: Record<string, Task>, time: number, warmup: boolean, reverse: boolean): Promise<Map<string, Sample>> {
  const bench = new Bench({ time, warmup, warmupTime: 300, throws: true })
  const entries = Object.entries(tasks)
  if (reverse) entries.reverse()
  // `beforeEach` runs outside the timed call (a fresh item the call uses up).
  for (const [name, task] of entries) {
    if (typeof task === "function") bench.add(name, task)
    else bench.add(name, task.fn, task.beforeEach ? { beforeEach: task.beforeEach } : {})
  }
  await bench.run()
  const samples = new Map<string, Sample>()
  for (const task of bench.tasks) {
    const result = task.result
    if (result.state !== "completed") throw new Error(`${task.name}: ${result.state}`)
    const { mean, p50, p99, rme } = result.latency
    samples.set(task.name, { mean: mean * 1000, p50: p50 * 1000, p99: p99 * 1000, rme })
  }
  return samples
}

/** Measures every task over several rounds and keeps, per task, the median undisturbed round. */
export async function measure(tasks: Record<string, Task>, options: MeasureOptions = {}): Promise<Map<string, Figures>> {
  const { rounds = 15, time = 150, noise = 1.25, alternate = false } = options
  const byTask = new Map<string, Sample[]>(Object.keys(tasks).map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const [name, sample] of await runRound(tasks, time, round === 0, alternate && round % 2 === 1)) byTask.get(name)!.push(sample)
  }
  const figures = new Map<string, Figures>()
  for (const [name, samples] of byTask) {
    const bestP50 = Math.min(...samples.map((s) => s.p50))
    const kept = samples.filter((s) => s.p50 <= bestP50 * noise)
    const chosen = median(kept, (s) => s.mean)
    const best = Math.min(...kept.map((s) => s.mean))
    figures.set(name, { ...chosen, ops: 1e6 / chosen.mean, kept: kept.length, rounds, best, bestP50, roundP50s: samples.map((s) => s.p50) })
  }
  return figures
}

/**
 * The median over rounds of `a`'s p50 divided by `b`'s in the same round: each round runs every
 * task within a fraction of a second, so a burst of load on a shared machine hits both sides of
 * a ratio, where separately chosen rounds can each catch a different burst.
 */
export function pairedRatio(a: Figures, b: Figures): number {
  const ratios = a.roundP50s.map((p50, i) => p50 / b.roundP50s[i]!).sort((x, y) => x - y)
  return ratios[Math.floor((ratios.length - 1) / 2)]!
}

/**
 * Median over rounds of a's p50 less b's p50 (microseconds): what a costs beyond b in absolute
 * terms, paired like `pairedRatio`.
 */
export function pairedDifference(a: Figures, b: Figures): number {
  const differences = a.roundP50s.map((p50, i) => p50 - b.roundP50s[i]!).sort((x, y) => x - y)
  return differences[Math.floor((differences.length - 1) / 2)]!
}

const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })

/** Prints one table row per task. */
export function printFigures(title: string, figures: Map<string, Figures>): void {
  console.log(`\n${title}`)
  const rows = [...figures].map(([name, f]) => ({
    task: name,
    "ops/s": fmt(f.ops, 0),
    "mean us": fmt(f.mean),
    "p50 us": fmt(f.p50),
    "p99 us": fmt(f.p99),
    "best mean": fmt(f.best),
    "best p50": fmt(f.bestP50),
    "rme %": fmt(f.rme, 2),
    "quiet rounds": `${f.kept}/${f.rounds}`,
  }))
  console.table(rows)
}

export { fmt }
