import { defineConfig } from "vitest/config"

// The release test publishes, installs and type-checks: minutes on a busy machine, never forever.
export default defineConfig({
  test: { testTimeout: 300_000, hookTimeout: 300_000, fileParallelism: false },
})
