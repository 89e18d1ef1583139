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
      // The Qwik entry keeps `.qwik.mjs` (the app's optimizer processes it again); the passkey
      // helpers have no `$` closures and are a plain module.
      entry: { index: "./src/index.ts", passkey: "./src/passkey.ts" },
      formats: ["es"],
      fileName: (_format, name) => (name === "index" ? "index.qwik.mjs" : `${name}.mjs`),
    },
    rollupOptions: { external: [/^node:/, ...external] },
  },
  plugins: [qwikVite()],
})
