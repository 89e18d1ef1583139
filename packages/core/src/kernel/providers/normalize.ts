/**
 * Providers as core uses them: a provider function is called, its `options` (the user's overrides
 * of a preset) are laid over it, and the result is frozen. The caller's objects are never written.
 */
import type { AppProvider, Provider, ProviderConfig } from "../types/providers.js"

/** Calls a provider function and applies its `options`; returns a new frozen object. */
export function normalizeProvider(provider: Provider): ProviderConfig {
  const config = typeof provider === "function" ? provider() : provider
  const { options, ...rest } = config as ProviderConfig & { options?: Record<string, unknown> }
  return Object.freeze({ ...rest, ...(options ?? {}), type: config.type }) as ProviderConfig
}

/** The provider as GET /providers and the sign-in page present it (spec 2.5 AppProvider). */
export function toAppProvider(provider: ProviderConfig, actionBase: string): AppProvider {
  return {
    id: provider.id,
    name: provider.name,
    type: provider.type,
    signinUrl: `${actionBase}/signin/${encodeURIComponent(provider.id)}`,
    callbackUrl: `${actionBase}/callback/${encodeURIComponent(provider.id)}`,
  }
}
