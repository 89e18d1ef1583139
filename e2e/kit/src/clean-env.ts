/**
 * The environment for a child process (npm, pnpm, git, tsc, a scratch project's server) without what
 * a parent pnpm or npm passes down: a test started by `pnpm test` inherits `npm_config_*` and
 * `pnpm_*` variables (the workspace's registry, its user config, its store), which would point the
 * child at the wrong registry or configuration.
 */

/** `process.env` without `npm_*`, `pnpm_*`, `NPM_CONFIG_*` variables, plus `extra` (which wins). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_|PNPM_|NPM_CONFIG_)/i.test(key)) env[key] = value
  }
  return { ...env, NO_UPDATE_NOTIFIER: "1", ...extra }
}
