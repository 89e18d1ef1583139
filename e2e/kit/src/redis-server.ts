/**
 * A throwaway `redis-server` for the tests: started on a free loopback port with its own data
 * directory, no persistence unless a test asks for it, stopped (and its directory deleted) at the
 * end. Every step is bounded in time. Binary: `REDIS_SERVER_BIN`, else `redis-server` on the PATH
 * (Debian's `redis-server` package, installed by `.ci/setup`).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./free-port.js"

export interface RedisServer {
  url: string
  port: number
  /** Stops the server (SIGTERM, then SIGKILL after 5 s); its data directory stays for `start`. */
  kill(): Promise<void>
  /** Starts it again on the same port and directory (after `kill`). */
  start(): Promise<void>
  /** Stops it and deletes its directory. */
  stop(): Promise<void>
}

/** The `redis-server` binary, or null when Redis is not installed. */
export function findRedisServer(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.REDIS_SERVER_BIN) return existsSync(env.REDIS_SERVER_BIN) ? env.REDIS_SERVER_BIN : null
  for (const candidate of ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]) if (existsSync(candidate)) return candidate
  try {
    return execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim() || null
  } catch {
    return null
  }
}

/** Resolves once the port accepts a connection (every 20 ms, at most `timeoutMs`). */
async function waitForPort(port: number, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1")
      socket.once("connect", () => (socket.destroy(), resolve(true)))
      socket.once("error", () => resolve(false))
    })
    if (open) return
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms:\n${log()}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * Starts a server. `args` are extra `redis-server` options (`["--maxmemory", "2mb", ...]`); the
 * defaults keep nothing on disk (`--save "" --appendonly no`) unless `args` says otherwise.
 */
export async function startRedisServer(bin: string, args: string[] = []): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "authlib-redis-"))
  const port = await freePort()
  let child: ChildProcess | undefined
  let output = ""
  const argv = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no", ...args]
  const start = async () => {
    output = ""
    const started = spawn(bin, argv, { stdio: ["ignore", "pipe", "pipe"] })
    started.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
    started.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child = started
    await waitForPort(port, 10_000, () => output)
  }
  const kill = async () => {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null) return
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()))
    running.kill("SIGTERM")
    const timer = setTimeout(() => running.kill("SIGKILL"), 5_000)
    await exited
    clearTimeout(timer)
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    async stop() {
      try {
        await kill()
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
