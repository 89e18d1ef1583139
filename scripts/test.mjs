#!/usr/bin/env node
/**
 * `pnpm test`: the whole suite, one step after the other, stopping at the first that fails. pnpm
 * appends whatever follows `pnpm test` to the script's command line; a script of steps joined by
 * `&&` handed `--help` to its last step, after running all the others. Here the arguments are read
 * first: `--help` prints the usage and runs nothing, an unknown argument is refused.
 *
 *   node scripts/test.mjs               every step
 *   node scripts/test.mjs --help        the usage, nothing run
 *   node scripts/test.mjs --self-test   checks the two lines above without running any step
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

/** The steps, in order: each a command and its arguments (run with the script's PATH, which pnpm extends with node_modules/.bin). */
export const STEPS = [
  ["pnpm", ["lint:cycles"]],
  ["pnpm", ["lint:paths"]],
  ["pnpm", ["lint:api"]],
  ["node", [fileURLToPath(import.meta.url), "--self-test"]],
  ["turbo", ["run", "typecheck", "publint", "test", "--concurrency=2"]],
  ["pnpm", ["lint:pack"]],
]

const USAGE = `Usage: pnpm test [--help]

Runs the whole suite, stopping at the first step that fails (expect many minutes):
${STEPS.map(([cmd, args]) => `  ${[cmd, ...args].join(" ").replace(fileURLToPath(import.meta.url), "scripts/test.mjs")}`).join("\n")}

It takes no other arguments. For part of the suite, run a step or one package's task:
  pnpm lint:cycles | pnpm lint:paths | pnpm lint:api | pnpm lint:pack
  pnpm turbo run test --filter=@authlib/core      (one package, with the builds it needs)
  pnpm --filter @authlib/core exec vitest run test/node   (some of a package's tests)
`

function selfTest() {
  const self = fileURLToPath(import.meta.url)
  // No PATH: a step started by mistake fails to spawn, and says so.
  const run = (...args) => spawnSync(process.execPath, [self, ...args], { encoding: "utf8", env: { PATH: "" } })
  const help = run("--help")
  const unknown = run("--watch")
  const problems = []
  if (help.status !== 0 || !help.stdout.startsWith("Usage: pnpm test") || help.stderr !== "") problems.push(`--help: exit ${help.status}, stdout ${JSON.stringify(help.stdout.slice(0, 80))}, stderr ${JSON.stringify(help.stderr.slice(0, 200))}`)
  if (unknown.status !== 2 || !unknown.stderr.includes('unknown argument "--watch"') || unknown.stdout !== "") problems.push(`--watch: exit ${unknown.status}, stderr ${JSON.stringify(unknown.stderr.slice(0, 200))}`)
  if (problems.length) {
    console.error(`test script self-test failed:\n  ${problems.join("\n  ")}`)
    process.exit(1)
  }
  console.log("test script self-test passed (--help prints the usage and runs nothing; an unknown argument is refused)")
}

function main(args) {
  if (args.includes("--help") || args.includes("-h")) return void process.stdout.write(USAGE)
  if (args.length === 1 && args[0] === "--self-test") return selfTest()
  if (args.length > 0) {
    process.stderr.write(`pnpm test: unknown argument "${args[0]}"\n\n${USAGE}`)
    process.exit(2)
  }
  for (const [cmd, cmdArgs] of STEPS) {
    const { status, error } = spawnSync(cmd, cmdArgs, { stdio: "inherit" })
    if (error) {
      console.error(`pnpm test: could not run ${cmd}: ${error.message}`)
      process.exit(1)
    }
    if (status !== 0) process.exit(status ?? 1)
  }
}

main(process.argv.slice(2))
