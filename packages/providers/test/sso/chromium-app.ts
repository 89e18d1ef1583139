/**
 * The SSO app served over HTTP for the Chromium journeys: core's `toNodeHandler` at `localhost`
 * (the IdPs listen on `127.0.0.1`, so their answers cross sites), a `MemoryAdapter`, and Debian's
 * Chromium with a fresh profile. Every other path answers a plain page (the callback URL's).
 */
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium, type BrowserContext } from "playwright-core"
import { toNodeHandler } from "@authlib/core/node"
import { MemoryAdapter, createMemoryStore, type MemoryStore } from "@authlib/adapter-test"
import { startApp, type SsoApp } from "./harness.js"

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

export interface ChromiumApp {
  origin: string
  store: MemoryStore
  app: SsoApp
  /** Chromium's context, 15 s per action. */
  context: BrowserContext
  stop(): Promise<void>
}

export async function startChromiumApp(): Promise<ChromiumApp> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`
  const store = createMemoryStore()
  const app = await startApp(MemoryAdapter(store), {}, origin)
  const auth = toNodeHandler(app.config)
  server.on("request", (req, res) => auth(req, res, () => void res.writeHead(200, { "content-type": "text/plain" }).end(`app page ${req.url}`)))
  const profile = await mkdtemp(join(tmpdir(), "authlib-sso-chromium-"))
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 30_000 })
  context.setDefaultTimeout(15_000)
  return {
    origin,
    store,
    app,
    context,
    async stop() {
      await context.close()
      await rm(profile, { recursive: true, force: true })
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
