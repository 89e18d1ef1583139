/**
 * A child process running a script of `test/helpers/` (TypeScript through tsx, on the package's
 * sources), as the multi-process tests start their "app instances": it prints `ready`, waits for one
 * line on stdin (`go ...`), then prints its report as the last line of JSON. Killed after 40 s.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const packageDir = fileURLToPath(new URL("../..", import.meta.url))

export interface ChildScript<T> {
  /** Settles once the child printed `ready`, or rejects when it died first (never leaves a test waiting). */
  ready: Promise<void>
  /** Sends its one line (default `go`) and closes stdin. */
  go(line?: string): void
  /** The child's JSON report (its last line of output). */
  result: Promise<T>
}

export function startScript<T>(script: string, args: string[]): ChildScript<T> {
  const child = spawn(process.execPath, ["--import", "tsx", `test/helpers/${script}`, ...args], { cwd: packageDir, stdio: ["pipe", "pipe", "pipe"] })
  let out = ""
  let err = ""
  let markReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString()
    if (out.startsWith("ready\n")) markReady()
  })
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()))
  const result = new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => child.kill(), 40_000)
    child.on("close", (code) => {
      clearTimeout(timer)
      const last = out.trim().split("\n").at(-1) ?? ""
      if (code === 0 && (last.startsWith("[") || last.startsWith("{"))) resolve(JSON.parse(last) as T)
      else reject(new Error(`child exited with ${code}: ${err || out}`))
    })
  })
  return { ready: Promise.race([ready, result.then(() => {})]), go: (line = "go") => child.stdin.end(`${line}\n`), result }
}
