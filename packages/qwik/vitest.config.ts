import { qwikVite } from "@builder.io/qwik/optimizer"
import type { Plugin } from "vite"
import { defineConfig } from "vitest/config"

/**
 * Qwik City's entry imports virtual modules that its vite plugin generates from an app's routes.
 * The binding's tests have no app: these are the empty plan and no service worker.
 */
const qwikCityVirtualModules: Plugin = {
  name: "qwik-city-virtual-modules",
  enforce: "pre",
  resolveId: (id) => (id === "@qwik-city-plan" || id === "@qwik-city-sw-register" ? `\0${id}` : undefined),
  load(id) {
    if (id === "\0@qwik-city-plan") {
      return "export const routes = []; export const serverPlugins = []; export const menus = []; export const trailingSlash = false; export const basePathname = '/'; export const cacheModules = false; export default { routes, serverPlugins, menus, trailingSlash, basePathname, cacheModules }"
    }
    if (id === "\0@qwik-city-sw-register") return "export default ''"
    return undefined
  },
}

/**
 * The binding's `$` closures (`globalAction$`, `routeLoader$`) need Qwik's optimizer, as in an
 * app: tests run the sources through it. Core and everything else are the built packages.
 */
export default defineConfig({
  plugins: [qwikCityVirtualModules, qwikVite()],
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 15_000,
  },
})
