import { defineConfig } from "vitest/config"

/** Browser tests against the built app: one server and one Chromium per file, files one at a time. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
