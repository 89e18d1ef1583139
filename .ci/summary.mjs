// Adds up vitest's per-package "Tests ..." lines from a test log and prints one closing line,
// "N passed, N failed" (", N skipped" when any), so CI reads one total for the whole workspace.
import { readFileSync } from "node:fs"

const log = readFileSync(process.argv[2] ?? 0, "utf8").replace(/\x1b\[[0-9;]*m/g, "")
const total = { passed: 0, failed: 0, skipped: 0 }
for (const line of log.split("\n")) {
  const m = /\bTests\s+(.*)\(\d+\)\s*$/.exec(line)
  if (!m) continue
  for (const part of m[1].split("|")) {
    const p = /(\d+)\s+(passed|failed|skipped|todo)/.exec(part)
    if (p && p[2] !== "todo") total[p[2]] += Number(p[1])
  }
}
const skipped = total.skipped ? `, ${total.skipped} skipped` : ""
console.log(`${total.passed} passed, ${total.failed} failed${skipped}`)
