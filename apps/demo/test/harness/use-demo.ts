/**
 * One built demo server and one browser per test file: started before the file's tests, stopped
 * after them, with a fresh data folder (PGlite database, generated secret) removed at the end.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { launchBrowser, type DemoBrowser } from "./browser.js"
import { startDemo, type DemoServer } from "./server.js"

export interface DemoFixture {
  readonly server: DemoServer
  readonly browser: DemoBrowser
}

/** Registers the file's `beforeAll`/`afterAll`; `env` is added to the demo's environment. */
export function useDemo(env: Record<string, string> = {}): DemoFixture {
  let server: DemoServer | undefined
  let browser: DemoBrowser | undefined
  let dataDir: string | undefined
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "authlib-demo-data-"))
    server = await startDemo({ DEMO_DATA_DIR: dataDir, ...env })
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the demo is not started: use the fixture inside a test")
    return value
  }
  return {
    get server() { return started(server) },
    get browser() { return started(browser) },
  }
}
