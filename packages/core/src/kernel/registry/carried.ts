/**
 * How a registry reaches the kernel: the config carries it under `REGISTRY_KEY`, put there by a
 * package entry (the full registry) or by the app (`withCapabilities` in `@authlib/core/internal`).
 * `resolveConfig` reads it once and the resolved config (`ResolvedConfig.registry`) hands it to
 * every route, flow and hook through the request's context: nothing is installed, nothing global.
 */
import type { AuthConfig } from "../types/config.js"
import type { Registry } from "../types/registry.js"

/** The config key of the registry a config runs with (a symbol: no app option can collide with it). */
export const REGISTRY_KEY: unique symbol = Symbol("authlib.registry")

/** A config that says which registry it runs with. */
export type ConfigWithRegistry<C extends AuthConfig = AuthConfig> = C & { readonly [REGISTRY_KEY]: Registry }

/** The registry `config` carries, or undefined when no entry or app has given it one. */
export function carriedRegistry(config: AuthConfig): Registry | undefined {
  return (config as Partial<ConfigWithRegistry>)[REGISTRY_KEY]
}

/** `config` with `registry` (a copy: the app's object is never written). */
export function withRegistry<C extends AuthConfig>(config: C, registry: Registry): ConfigWithRegistry<C> {
  return { ...config, [REGISTRY_KEY]: registry }
}
