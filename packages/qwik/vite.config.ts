import { qwikVite } from "@builder.io/qwik/optimizer"
import { defineConfig } from "vite"
import pkg from "./package.json" with { type: "json" }

// Everything the package depends on stays an import: the app resolves (and dedupes) it.
const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].map(
  (name) => new RegExp(`^${name}(/.*)?$`),
)

/**
 * Qwik library mode (`vite build --mode lib`): the optimizer turns each `$` closure into an
 * inlined QRL, and the `.qwik.mjs` file name tells the app's optimizer to process it again.
 */
export default defineConfig({
  build: {
    target: "es2022",
    outDir: "lib",
    emptyOutDir: true,
    lib: {
      entry: "./src/index.ts",
      formats: ["es"],
      fileName: () => "index.qwik.mjs",
    },
    rollupOptions: { external: [/^node:/, ...external] },
  },
  plugins: [qwikVite()],
})
