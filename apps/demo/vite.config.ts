import { qwikCity } from "@builder.io/qwik-city/vite"
import { qwikVite } from "@builder.io/qwik/optimizer"
import { defineConfig } from "vite"

/** The client build (dist/); adapters/node-server/vite.config.ts extends it for the server build. */
export default defineConfig(() => ({
  plugins: [qwikCity(), qwikVite()],
  preview: { headers: { "Cache-Control": "public, max-age=600" } },
}))
