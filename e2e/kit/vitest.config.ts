import { defineConfig } from "vitest/config"

// The registry test publishes and installs with the real npm client: seconds, more on a busy machine.
export default defineConfig({
  test: { testTimeout: 120_000, hookTimeout: 120_000 },
})
