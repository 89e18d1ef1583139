/**
 * The root README's Next.js quick start, its blocks as written: laid out in a folder as
 * `create-next-app` makes it (its tsconfig.json with the `@/*` alias; the README's files replace its
 * pages), with the workspace's packages linked in as `npm install` would place them. Type-checked
 * with TypeScript 5.9 (pinned) and 7 (what `npm install -D typescript` installs today), built with
 * `next build`, served by `next start` with the README's `.env.local` (the test's values set in the
 * environment, which wins), then Chromium: the proxy sends a visitor of /dashboard to sign in; the
 * server action's GitHub sign-in goes through GitHub's OAuth flow (a stand-in for github.com and
 * api.github.com: the test routes the server's `fetch` there and answers the browser's visit to
 * github.com's authorize page), lands on /dashboard; the server and client components show the
 * user; sign-out.
 */
import { execFile, spawn } from "node:child_process"
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { promisify } from "node:util"
import { freePort } from "@authlib/e2e-kit/free-port"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { GITHUB_FETCH_ROUTE, readmeBlock, startGitHubStandIn } from "../../../e2e/standalone/src/quickstart.js"
import { app } from "./harness/app.js"
import { launchBrowser } from "./harness/browser.js"

const run = promisify(execFile)
const repo = resolve(app, "../..")
const README = readFileSync(join(repo, "README.md"), "utf8")
const FILES = ["auth.ts", "app/api/auth/[...nextauth]/route.ts", "proxy.ts", "app/page.tsx", "app/dashboard/page.tsx", "app/layout.tsx", "app/user-name.tsx", ".env.local"]
const dir = join(app, "test/.quickstart")
const modules = join(app, "node_modules")

/** The tsconfig.json `create-next-app` 16 writes (TypeScript, App Router, `@/*` alias). */
const CREATE_NEXT_APP_TSCONFIG = {
  compilerOptions: {
    target: "ES2017",
    lib: ["dom", "dom.iterable", "esnext"],
    allowJs: true,
    skipLibCheck: true,
    strict: true,
    noEmit: true,
    esModuleInterop: true,
    module: "esnext",
    moduleResolution: "bundler",
    resolveJsonModule: true,
    isolatedModules: true,
    jsx: "react-jsx",
    incremental: true,
    plugins: [{ name: "next" }],
    paths: { "@/*": ["./*"] },
  },
  include: ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts", ".next/dev/types/**/*.ts", "**/*.mts"],
  exclude: ["node_modules"],
}

function link(name: string, from: string): void {
  const target = join(dir, "node_modules", name)
  mkdirSync(dirname(target), { recursive: true })
  symlinkSync(realpathSync(from), target)
}

beforeAll(() => {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  expect(readmeBlock(README, "nextjs/install").trim()).toBe("npm install @authlib/nextjs @authlib/providers")
  for (const file of FILES) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), readmeBlock(README, `nextjs/${file}`))
  }
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(CREATE_NEXT_APP_TSCONFIG, null, 2))
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "quickstart", private: true, scripts: { build: "next build", start: "next start" } }, null, 2))
  // What create-next-app installs, and the README's two packages.
  for (const name of ["next", "react", "react-dom", "typescript", "@types/react", "@types/react-dom", "@types/node", "@authlib/nextjs", "@authlib/providers"]) link(name, join(modules, name))
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("the README's Next.js quick start", () => {
  it.each([
    ["5.9", join(modules, "typescript/bin/tsc")],
    ["7", join(modules, "typescript7/bin/tsc")],
  ])("type-checks with TypeScript %s", async (_version, tsc) => {
    const result = await run(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit"], { cwd: dir, timeout: 120_000 }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? String(err) }))
    expect(result.stdout.trim()).toBe("")
  })

  it("builds, and Chromium signs in through GitHub and out again", async () => {
    const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" }
    for (const key of Object.keys(env)) if (/^(AUTH_|WEBAUTH_|VITEST|NODE_OPTIONS$|npm_|pnpm_)/i.test(key)) delete env[key]
    await run(process.execPath, ["node_modules/next/dist/bin/next", "build"], { cwd: dir, env, timeout: 240_000 })

    const github = await startGitHubStandIn({ clientId: "Ov23liQuickStart", clientSecret: "quickstart-github-secret-0123456789" })
    writeFileSync(join(dir, "github-fetch-route.mjs"), GITHUB_FETCH_ROUTE)
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)], {
      cwd: dir,
      env: {
        ...env,
        AUTH_SECRET: "quickstart-secret-0123456789abcdefghijklmnop",
        WEBAUTH_URL: origin,
        AUTH_GITHUB_ID: "Ov23liQuickStart",
        AUTH_GITHUB_SECRET: "quickstart-github-secret-0123456789",
        GITHUB_STAND_IN: github.url,
        NODE_OPTIONS: `--import ${pathToFileURL(join(dir, "github-fetch-route.mjs")).href}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    server.stdout!.on("data", (c) => (output += c))
    server.stderr!.on("data", (c) => (output += c))
    const guard = setTimeout(() => server.kill("SIGKILL"), 180_000)
    const browser = await launchBrowser()
    try {
      await expect.poll(() => output.includes("Ready") || server.exitCode !== null, { timeout: 60_000 }).toBe(true)
      const page = await browser.newPage()
      // github.com's authorize page: the user approves, GitHub sends the browser back with a code.
      await page.route("https://github.com/login/oauth/authorize**", (route) => {
        const asked = new URL(route.request().url())
        github.approve("quickstart-code", asked.searchParams.get("code_challenge")!)
        const back = new URL(asked.searchParams.get("redirect_uri")!)
        back.search = new URLSearchParams({ code: "quickstart-code", state: asked.searchParams.get("state")!, iss: "https://github.com/login/oauth" }).toString()
        return route.fulfill({ status: 302, headers: { location: back.href } })
      })

      await page.goto(`${origin}/dashboard`)
      expect(new URL(page.url()).pathname).toBe("/api/auth/signin")
      expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`${origin}/dashboard`)

      await page.goto(`${origin}/`)
      await Promise.all([page.waitForURL(`${origin}/dashboard`), page.getByRole("button", { name: "Sign in with GitHub" }).click()])
      await expect(page.textContent("body")).resolves.toContain("Dashboard of octocat@github.com")
      expect(github.calls.map((c) => c.url)).toEqual(["https://github.com/login/oauth/access_token", "https://api.github.com/user", "https://api.github.com/user/emails"])

      await page.goto(`${origin}/`)
      await page.getByText("Signed in as The Octocat").waitFor()
      await page.getByText("In the browser: octocat@github.com").waitFor()
      await page.getByRole("button", { name: "Sign out" }).click()
      await page.getByRole("button", { name: "Sign in with GitHub" }).waitFor()
      expect(server.exitCode).toBeNull()
    } catch (err) {
      throw new Error(`${(err as Error).message}\nnext start:\n${output}`, { cause: err })
    } finally {
      clearTimeout(guard)
      await browser.close()
      server.kill("SIGTERM")
      await github.close()
    }
  }, 300_000)
})
