/**
 * The release step both test files start from: every publishable workspace package published to the
 * test's registry, as `pnpm release` does it.
 */
import { execFile } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import type { Registry } from "@authlib/e2e-kit/registry"

const run = promisify(execFile)

/**
 * What `pnpm release` (changeset publish) runs for a pnpm workspace: `pnpm publish` of each package
 * under `packages/` not yet on the registry, `workspace:` ranges replaced by versions. The packages
 * are built by turbo before the tests. Writes `publish.npmrc` (the registry and its token) into
 * `dir` and returns its path.
 */
export async function publishWorkspace(repo: string, registry: Registry, dir: string): Promise<string> {
  const npmrc = join(dir, "publish.npmrc")
  writeFileSync(npmrc, registry.npmrc())
  await run("pnpm", ["-r", "--filter", "./packages/*", "publish", "--registry", registry.url, "--no-git-checks", "--ignore-scripts", "--access", "public"], {
    cwd: repo,
    timeout: 240_000,
    env: { ...process.env, npm_config_userconfig: npmrc, npm_config_registry: registry.url },
  })
  return npmrc
}
