/**
 * Starts the built demo (`src/entry.node-server.ts`, built into `server/`) as its own node
 * process on a free port of 127.0.0.1, waits until it listens, and stops it. Tests drive the real
 * production build.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const appDir = fileURLToPath(new URL("../..", import.meta.url))
const entry = `${appDir}server/entry.node-server.js`

export interface DemoServer {
  /** Origin without trailing slash, such as `http://127.0.0.1:41234`. */
  readonly origin: string
  /** Everything the server printed, for failure messages. */
  readonly output: () => string
  readonly stop: () => Promise<void>
}

function waitForListening(child: ChildProcess, log: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`demo server did not start in ${timeoutMs} ms:\n${log.join("")}`)), timeoutMs)
    const onData = (chunk: Buffer) => {
      log.push(chunk.toString())
      const match = /listening on (http:\/\/[^\s/]+)/.exec(log.join(""))
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", (chunk: Buffer) => log.push(chunk.toString()))
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`demo server exited with ${code}:\n${log.join("")}`))
    })
  })
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      const force = setTimeout(() => child.kill("SIGKILL"), 5_000)
      child.once("exit", () => {
        clearTimeout(force)
        resolve()
      })
      child.kill("SIGTERM")
    })
}

/** Starts the built demo; `env` adds to (or overrides) the inherited environment. */
export async function startDemo(env: Record<string, string> = {}, timeoutMs = 90_000): Promise<DemoServer> {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the demo first (pnpm --filter @authlib/demo build)`)
  const child = spawn(process.execPath, [entry], {
    cwd: appDir,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  const log: string[] = []
  const stop = stopper(child)
  try {
    const origin = await waitForListening(child, log, timeoutMs)
    return { origin, output: () => log.join(""), stop }
  } catch (err) {
    await stop()
    throw err
  }
}
