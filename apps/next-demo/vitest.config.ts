import { defineConfig } from "vitest/config"

/**
 * Chromium against `next build` + `next start` of the demo: one build for the run (global set-up),
 * `next start` processes per file, files one at a time (2-core CI).
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
