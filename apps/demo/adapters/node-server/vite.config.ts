import { nodeServerAdapter } from "@builder.io/qwik-city/adapters/node-server/vite"
import { extendConfig } from "@builder.io/qwik-city/vite"
import baseConfig from "../../vite.config.js"

/** The server build (server/): SSR bundle plus the node:http entry in src/entry.node-server.ts. */
export default extendConfig(baseConfig, () => ({
  build: {
    ssr: true,
    rollupOptions: { input: ["src/entry.node-server.ts", "@qwik-city-plan"] },
  },
  plugins: [nodeServerAdapter({ name: "node-server" })],
}))
