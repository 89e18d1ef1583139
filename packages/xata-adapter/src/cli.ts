#!/usr/bin/env node
/** The `authlib-xata` command. The work is in `cli-run.ts`, which the tests call in-process. */
import { runCli } from "./cli-run.js"

process.exitCode = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
})
