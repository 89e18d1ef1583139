/**
 * The capabilities of this build of core, in one list: adding a capability is its folder plus one
 * line here. The registry is a value, not installed anywhere: every public function hands it to
 * the kernel inside the config (`configured`), and the resolved config passes it to each route,
 * flow and hook, so the kernel finds them without importing a capability and no import of the
 * package has to run for its side effects.
 */
import { credentials } from "./capabilities/credentials/index.js"
import { email } from "./capabilities/email/index.js"
import { linkedAccounts } from "./capabilities/linked-accounts/index.js"
import { oauth } from "./capabilities/oauth/index.js"
import { organizations } from "./capabilities/organizations/index.js"
import { passkeyManagement } from "./capabilities/passkey-management/index.js"
import { providerTokens } from "./capabilities/provider-tokens/index.js"
import { sessionManagement } from "./capabilities/session-management/index.js"
import { sso } from "./capabilities/sso/index.js"
import { twoFactor } from "./capabilities/two-factor/index.js"
import { webauthn } from "./capabilities/webauthn/index.js"
import { assembleRegistry, type Registry } from "./kernel/registry/assemble.js"
import { carriedRegistry, withRegistry, type ConfigWithRegistry } from "./kernel/registry/carried.js"
import { kernelRoutes } from "./kernel/routes/index.js"
import type { ErrorCodes } from "./kernel/errors/codes.js"
import { PORTS, type AllPorts } from "./kernel/ports/ports.js"
import type { RateLimitDefaults } from "./kernel/rate-limit/options.js"
import type { AuthConfig } from "./kernel/types/config.js"
import { isAuthPath as isAuthPathOf } from "./kernel/config/base-path.js"
import { setEnvDefaults as fillFromEnv, type EnvSource } from "./kernel/config/env.js"

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
  organizations,
  sso,
])

/** The copy of each app config that carries `REGISTRY`: one per config object, so its resolution is cached once too. */
const withFull = new WeakMap<AuthConfig, ConfigWithRegistry>()

/**
 * `config` as core runs it: as it is when it carries a registry (`withCapabilities`), else a copy
 * carrying `REGISTRY`. Every public function starts here; the app's object is never written.
 */
export function configured<C extends AuthConfig>(config: C): ConfigWithRegistry<C> {
  if (carriedRegistry(config)) return config as ConfigWithRegistry<C>
  let copy = withFull.get(config)
  if (!copy) withFull.set(config, (copy = withRegistry(config, REGISTRY)))
  return copy as ConfigWithRegistry<C>
}

/**
 * `config` running with only the capabilities whose name `keep` accepts (the kernel's routes
 * always stay): a copy carrying its own registry, assembled once here, so keep the result and
 * hand it to `Auth` and the server functions on every request. The routes of a capability left
 * out answer as unknown actions do (404 `UnknownAction`), its hooks never run.
 */
export function withCapabilities<C extends AuthConfig>(config: C, keep: (name: string) => boolean): ConfigWithRegistry<C> {
  return withRegistry(config, assembleRegistry(REGISTRY.capabilities.filter((c) => c === kernelRoutes || keep(c.name))))
}

type AnyFunction = (...args: unknown[]) => unknown

/**
 * `fn` handed `configured(config)` for the config it takes at argument `at`. A method the function
 * carries (another shape of the same work, taking the same arguments) is bound the same way.
 */
function bind(fn: AnyFunction, at: 0 | 1, methods = true): AnyFunction {
  const known = bound[at].get(fn)
  if (known) return known
  const call: AnyFunction = (...args) => fn(...args.map((arg, i) => (i === at ? configured(arg as AuthConfig) : arg)))
  const own = call as unknown as Record<string, unknown>
  for (const [key, value] of methods ? Object.entries(fn) : []) own[key] = typeof value === "function" ? bind(value as AnyFunction, at, false) : value
  bound[at].set(fn, Object.defineProperty(call, "name", { value: fn.name }))
  return call
}

/**
 * Each function bound once per argument position: an entry's export and the map of server
 * functions are the same function (a module's functions are bound whole, so one taking the config
 * first is bound at both positions, and only the right one is exported).
 */
const bound = [new WeakMap<AnyFunction, AnyFunction>(), new WeakMap<AnyFunction, AnyFunction>()] as const

/** The functions of `fns`, each bound (`bind`); what is not a function is left out. */
function bindAll<T extends object>(fns: T, at: 0 | 1): T {
  const bound: Record<string, unknown> = {}
  for (const [name, fn] of Object.entries(fns)) if (typeof fn === "function") bound[name] = bind(fn as AnyFunction, at)
  return bound as T
}

/**
 * The server functions of a module as the entries export them, each reaching `REGISTRY` (or the
 * config's own) through its config, the argument after the request. Typed as the module, so the
 * names destructured from it keep their signatures (and, read from the sources, their TSDoc).
 */
export const forRequests = <T extends object>(fns: T): T => bindAll(fns, 1)

/** As `forRequests`, for server functions of the app that take the config first (no request). */
export const forApp = <T extends object>(fns: T): T => bindAll(fns, 0)

/**
 * Fills `config` from `env`; returns nothing (spec section 4). Each provider is completed as its
 * sign-in type reads the environment, in the registry the config carries, else `REGISTRY`.
 */
export function setEnvDefaults(env: EnvSource, config: AuthConfig): void {
  fillFromEnv(env, config, carriedRegistry(config) ?? REGISTRY)
}

/**
 * Whether a request for `pathname` is authlib's under the normalised `basePath`, with the actions of
 * `REGISTRY` (see the kernel's `isAuthPath`): what a binding asks before handing a request to core.
 */
export function isAuthPath(pathname: string, basePath: string): boolean {
  return isAuthPathOf(pathname, basePath, REGISTRY.actions)
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
