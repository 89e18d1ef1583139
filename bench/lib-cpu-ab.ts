/**
 * Batches of CPU time for in-process A/B scripts (`core-limits-ab.ts`, `core-session-ab.ts`): each
 * round times a batch of every task, in an order that turns with the rounds, so load that comes
 * and goes on a shared machine hits both sides of a ratio; figures are CPU microseconds per call,
 * ratios the median of the rounds' ratios.
 */

/** CPU microseconds per call of `task` over a batch of `n`. */
export async function cpuPerCall(task: () => Promise<unknown>, n: number): Promise<number> {
  const start = process.cpuUsage()
  for (let i = 0; i < n; i++) await task()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / n
}

export const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) / 2)]!

/** Every task's CPU time per call in each of `rounds` rounds of `n` calls (after one warm-up batch each), and the ratio of two tasks. */
export async function cpuRounds(tasks: Record<string, () => Promise<unknown>>, rounds: number, n: number) {
  const names = Object.keys(tasks)
  for (const name of names) await cpuPerCall(tasks[name]!, n)
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...names].reverse() : names
    const turned = [...order.slice(r % names.length), ...order.slice(0, r % names.length)]
    for (const name of turned) times[name]!.push(await cpuPerCall(tasks[name]!, n))
  }
  return {
    /** Each task's median CPU time per call, one line. */
    summary: () => names.map((name) => `${name} ${median(times[name]!).toFixed(1)} us`).join(", "),
    /** The median over rounds of `x`'s time divided by `y`'s in the same round. */
    ratio: (x: string, y: string) => median(times[x]!.map((v, i) => v / times[y]![i]!)).toFixed(3),
  }
}
