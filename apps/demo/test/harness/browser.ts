/**
 * Debian's Chromium driven by playwright-core: never a downloaded browser. Each launch gets a fresh
 * profile in a temporary folder, removed on close.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { chromium, type BrowserContext, type Page } from "playwright-core"

/** `CHROMIUM_PATH` overrides the Debian location. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]

/** Screenshots land here (git-ignored). */
export const outputDir = fileURLToPath(new URL("../../test-output/", import.meta.url))

export interface DemoBrowser {
  readonly context: BrowserContext
  readonly newPage: () => Promise<Page>
  readonly close: () => Promise<void>
}

export async function launchBrowser(): Promise<DemoBrowser> {
  const profile = await mkdtemp(join(tmpdir(), "authlib-demo-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1280, height: 860 },
    timeout: 30_000,
  })
  context.setDefaultTimeout(10_000)
  // Tests never leave the machine: anything but loopback (such as the IdP page's web font) is refused.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort())
  return {
    context,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}

/** Saves a full-page screenshot as test-output/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(outputDir, { recursive: true })
  const path = join(outputDir, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}
