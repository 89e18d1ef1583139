/**
 * The Qwik quick start (packages/qwik/README.md) in a real `npm create qwik` app under `vite` dev,
 * in Chromium, from the published tarballs. The app is what `create-qwik` 1.20.1 scaffolds for
 * `npm create qwik@1.20.1 empty <dir>` (run from its package, offline); the README's install line
 * is run as written, the README's three files written into it, and `npm run dev` (the scaffold's
 * `vite --mode ssr`) serves it. Chromium asks for a sign-in link, follows it from the mail, sees
 * "Signed in as", presses "Sign out" and sees the sign-in form again.
 *
 * What it guards: a stock app's dev server refusing `@authlib/qwik` in `dependencies` (issue 37,
 * bug 4), CommonJS reaching the browser from the packed packages (bug 3: Vite serves modules
 * imported from inside `node_modules` as they are), and source maps whose sources are not in the
 * tarballs (bug 6: Vite prints a warning per module).
 */
import { execFile, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cleanEnv } from "@authlib/e2e-kit/clean-env"
import { freePort } from "@authlib/e2e-kit/free-port"
import { startRegistry, type Registry } from "@authlib/e2e-kit/registry"
import { installedVersion, npmInstall } from "@authlib/e2e-kit/scratch"
import { thirdPartyClosure } from "@authlib/e2e-kit/third-party"
import { launchChromium } from "../src/chromium.js"
import { startMailSink } from "../src/mail.js"
import { exportedNames, readmeBlock } from "../src/quickstart.js"
import { publishWorkspace } from "../src/release.js"

const run = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, "..", "..", "..")
const README = readFileSync(join(repo, "packages", "qwik", "README.md"), "utf8")
const block = (name: string) => readmeBlock(README, name)

/**
 * The scaffold's devDependencies that `npm run dev` never loads (linting, formatting, an editor
 * plugin): they are not on this test's registry (nothing is downloaded), so they are left out.
 */
const TOOLING = ["@eslint/js", "eslint", "eslint-plugin-qwik", "globals", "prettier", "typescript-eslint", "typescript-plugin-css-modules"]
/** The scaffold's exact pins, replaced by the versions this workspace installed (same major). */
const PINS: Record<string, string> = { vite: "7.3.8", typescript: "5.9.3", "@types/node": "20.19.43" }

let registry: Registry
let scratchRoot: string
let app: string

beforeAll(async () => {
  registry = await startRegistry()
  scratchRoot = mkdtempSync(join(tmpdir(), "authlib-qwik-vite-"))
  const from = realpathSync(join(here, ".."))
  const roots = ["qwik", "providers", "xata-adapter"].map((p) => realpathSync(join(repo, "packages", p)))
  // What the scaffold's dev server needs, and the quick start's own packages besides ours.
  const extra = ["@builder.io/qwik", "@builder.io/qwik-city", "vite", "vite-tsconfig-paths", "undici", "typescript", "@types/node", "@electric-sql/pglite", "nodemailer"].map((name) => ({ name, from }))
  for (const { manifest, tarball } of thirdPartyClosure(roots, extra)) registry.add(manifest, tarball)
  await publishWorkspace(repo, registry, scratchRoot)

  // `npm create qwik@1.20.1 empty qwik-app`: create-qwik's own command, non-interactive (starter and folder given, no install).
  const createQwik = join(dirname(createRequire(import.meta.url).resolve("create-qwik/package.json")), "create-qwik.cjs")
  await run("node", [createQwik, "empty", "qwik-app"], { cwd: scratchRoot, env: cleanEnv(), timeout: 60_000 })
  app = join(scratchRoot, "qwik-app")
  const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { scripts: Record<string, string>; dependencies?: object; devDependencies: Record<string, string> }
  expect(manifest.scripts.dev).toBe("vite --mode ssr")
  expect(manifest.dependencies).toBeUndefined()
  for (const [name, version] of Object.entries(PINS)) expect(manifest.devDependencies[name]?.split(".")[0], name).toBe(version.split(".")[0])
  const devDependencies = Object.fromEntries(Object.entries(manifest.devDependencies).filter(([name]) => !TOOLING.includes(name)).map(([name, range]) => [name, PINS[name] ?? range]))
  writeFileSync(join(app, "package.json"), JSON.stringify({ ...manifest, devDependencies }, null, 2))
})

afterAll(async () => {
  await registry?.close()
  if (scratchRoot) rmSync(scratchRoot, { recursive: true, force: true })
})

/** `npm run dev` in `dir` on 127.0.0.1:`port`, in its own process group (stopped with it, and after 6 minutes whatever happens). */
function startDev(dir: string, port: number, env: Record<string, string>) {
  const child = spawn("npm", ["run", "dev", "--", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: dir, env: cleanEnv({ ...env, NO_COLOR: "1", BROWSER: "none" }), stdio: ["ignore", "pipe", "pipe"], detached: true,
  })
  const output: string[] = []
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()))
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM")
    } catch {
      // already gone
    }
  }
  setTimeout(stop, 6 * 60_000).unref()
  return { output: () => output.join(""), exited: () => child.exitCode !== null, stop }
}

describe("the Qwik quick start in a create-qwik app under vite dev, from the published tarballs", () => {
  it("installs with the README's line, serves the README's page, and Chromium signs in by e-mail link and out again; no CommonJS or broken source map on the way", async () => {
    const install = block("qwik-email/install").trim()
    expect(install).toMatch(/^npm install /)
    expect(exportedNames(block("qwik-email/env"))).toEqual(["AUTH_SECRET", "WEBAUTH_URL", "EMAIL_SERVER", "EMAIL_FROM"])
    for (const file of ["src/server/auth.ts", "src/routes/plugin@auth.ts", "src/routes/index.tsx"]) {
      mkdirSync(dirname(join(app, file)), { recursive: true })
      writeFileSync(join(app, file), block(`qwik-email/${file}`))
    }
    await npmInstall(app, registry.url, join(scratchRoot, ".npm-cache"), install.split(/\s+/).slice(2))
    expect(installedVersion(app, "@authlib/qwik")).toBe("0.0.0")

    const mail = await startMailSink()
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const dev = startDev(app, port, {
      AUTH_SECRET: "quickstart-secret-0123456789abcdefghijklmnop",
      WEBAUTH_URL: origin,
      EMAIL_SERVER: mail.url,
      EMAIL_FROM: "Quick Start <sign-in@example.com>",
    })
    const browser = await launchChromium()
    try {
      await expect.poll(() => dev.exited() || dev.output().includes(origin), { timeout: 60_000 }).toBe(true)
      expect(dev.exited(), dev.output()).toBe(false)
      const page = await browser.context.newPage()
      // What the browser reports: a module that is not ESM ("does not provide an export named ..."), a failed QRL.
      const problems: string[] = []
      page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`))
      page.on("console", (message) => void (message.type() === "error" && problems.push(`console: ${message.text()}`)))

      // A failure says where the page was, what it showed, and what the browser and Vite reported.
      const explain = async (err: unknown) => {
        const shown = await page.locator("body").innerText({ timeout: 2_000 }).catch(() => "(no page)")
        return new Error(`${err instanceof Error ? err.message : String(err)}\nat ${page.url()}, showing:\n${shown}\nbrowser: ${problems.join("\n")}\nvite:\n${dev.output().slice(-4_000)}`, { cause: err })
      }
      try {
        // The first request compiles the app and optimizes its dependencies: bounded, but not short.
        await page.goto(`${origin}/`, { timeout: 120_000 })
        await page.getByRole("textbox").fill("grace@example.com")
        await page.getByRole("button", { name: "E-mail me a sign-in link" }).click()
        await page.waitForURL(/\/auth\/verify-request/, { timeout: 30_000 })
        await expect.poll(() => mail.received.length, { timeout: 15_000 }).toBe(1)
        const link = /https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(mail.received[0]!.text ?? "")?.[0]
        expect(link?.startsWith(`${origin}/auth/callback/nodemailer?`)).toBe(true)

        await page.goto(link!, { timeout: 60_000 })
        // authlib's confirmation step (link scanners never press it), then back to the page.
        await page.getByRole("button", { name: "Sign in" }).click()
        await page.getByText("Signed in as grace@example.com").waitFor({ timeout: 30_000 })
        await page.getByRole("button", { name: "Sign out" }).click()
        // The page itself changes: the sign-out action ran in the browser's Qwik runtime and the session loader re-ran.
        await page.getByRole("button", { name: "E-mail me a sign-in link" }).waitFor({ timeout: 30_000 })
        expect(await page.getByText("Signed in as").count()).toBe(0)
        expect(problems).toEqual([])
        // Vite's terminal: no source map of ours pointing at files the tarballs lack (one line per module;
        // a third-party package's own, such as oauth4webapi's, is not ours to fix).
        expect(dev.output()).not.toMatch(/Sourcemap for "[^"]*\/node_modules\/@authlib\//)
      } catch (err) {
        throw await explain(err)
      }
    } finally {
      await browser.close()
      dev.stop()
      await mail.close()
    }
  })
})
