/**
 * The capabilities of this build of core, in one list: adding a capability is its folder plus one
 * line here. Every package entry (`index.ts`, `internal.ts`, `node/index.ts`) installs the registry
 * when it loads, so the kernel finds the routes, flows and hooks without importing a capability.
 */
import { credentials } from "./capabilities/credentials/index.js"
import { email } from "./capabilities/email/index.js"
import { linkedAccounts } from "./capabilities/linked-accounts/index.js"
import { oauth } from "./capabilities/oauth/index.js"
import { passkeyManagement } from "./capabilities/passkey-management/index.js"
import { providerTokens } from "./capabilities/provider-tokens/index.js"
import { sessionManagement } from "./capabilities/session-management/index.js"
import { twoFactor } from "./capabilities/two-factor/index.js"
import { webauthn } from "./capabilities/webauthn/index.js"
import { assembleRegistry, type Registry } from "./kernel/registry/assemble.js"
import { installRegistry } from "./kernel/registry/installed.js"
import { kernelRoutes } from "./kernel/routes/index.js"
import type { ErrorCodes } from "./kernel/errors/codes.js"
import { PORTS, type AllPorts } from "./kernel/ports/ports.js"
import type { RateLimitDefaults } from "./kernel/rate-limit/options.js"

/** Every capability, kernel routes first. */
export const REGISTRY: Registry = assembleRegistry([
  kernelRoutes,
  oauth,
  email,
  credentials,
  webauthn,
  passkeyManagement,
  sessionManagement,
  linkedAccounts,
  providerTokens,
  twoFactor,
])

/** Makes `REGISTRY` the one the kernel reads; every entry calls it as it loads. */
export function useRegistry(): Registry {
  installRegistry(REGISTRY)
  return REGISTRY
}

/**
 * authlib's named adapter ports, the kernel's and the capabilities' (name -> methods): an adapter
 * implements each as a unit. `@authlib/adapter-test` runs a port's suite when an adapter has it.
 */
export const ADAPTER_PORTS: Readonly<AllPorts> = Object.freeze({ ...PORTS, ...REGISTRY.ports } as AllPorts)

/**
 * Every code per error type (the code catalogue), the kernel's and the capabilities'. Three types
 * also carry codes the app chooses (see `APP_DEFINED_CODES`).
 */
export const ERROR_CODES: ErrorCodes = REGISTRY.errorCodes

/** The default rules of every rate-limit group (the README's table is tested against it). */
export const DEFAULT_RATE_LIMITS: RateLimitDefaults = REGISTRY.rateLimits
