import { qwikCity } from "@builder.io/qwik-city/vite"
import { qwikVite } from "@builder.io/qwik/optimizer"
import { defineConfig } from "vite"

/** The client build (dist/); adapters/node-server/vite.config.ts extends it for the server build. */
export default defineConfig(() => ({
  plugins: [qwikCity(), qwikVite()],
  // Minified, but with class and function names kept: errors that name themselves after their
  // class (oauth4webapi's, jose's) would otherwise reach the log as "q: ..." (test/build-names.test.ts).
  esbuild: { keepNames: true },
  preview: { headers: { "Cache-Control": "public, max-age=600" } },
}))
