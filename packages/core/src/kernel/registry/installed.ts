/**
 * The registry the package entries installed. Core's entries (`@authlib/core`, `/internal`, `/node`)
 * install the full registry when they load, before any of their exports can run, so the kernel
 * reaches every capability's declarations without importing a capability (the layer rule).
 */
import type { Registry } from "./assemble.js"

let installed: Registry | undefined

/** Installs `registry` (idempotent for the same registry). */
export function installRegistry(registry: Registry): void {
  installed = registry
}

/** The installed registry; throws when no entry of the package has been loaded (a packaging fault). */
export function registry(): Registry {
  if (!installed) throw new Error("@authlib/core: no capability registry is installed: import core through its package entries")
  return installed
}
