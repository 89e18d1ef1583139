/**
 * Adapter ports: the groups of adapter methods a capability uses as a unit, checked in one place.
 * Auth.js's methods are the base (an Auth.js adapter keeps working); authlib's additions are named
 * ports that an adapter implements together. A capability asks for the methods it needs and gets a
 * typed handle with no optional members, or `MissingAdapterMethods` naming what is missing: the
 * only place that error is made. Start-up (`config/validate.ts`) checks the same lists, so a configured
 * feature never meets a missing method at request time.
 */
import type { Adapter, CapabilityPorts } from "../types/adapters.js"
import { MissingAdapterMethods } from "../errors/errors.js"
import type { ResolvedConfig } from "../types/resolved-config.js"
import type { Registry } from "../types/registry.js"

/**
 * authlib's named adapter ports of the kernel (Auth.js's base methods are asked for by name): the
 * methods an adapter implements together, as a unit, for a feature to use them. Capabilities add
 * their own (`Capability.ports`, typed through `CapabilityPorts`); the package exports both as
 * `ADAPTER_PORTS`. `@authlib/adapter-test` fails an adapter that implements part of a port.
 */
export const PORTS = {
  /** Database sessions: the session record's life (`extendSession` is used when present, never required). */
  storedSessions: ["createSession", "getSessionAndUser", "updateSession", "deleteSession"],
  /** Single-use records: e-mail links and passkey challenges. */
  verificationTokens: ["createVerificationToken", "useVerificationToken"],
  /**
   * Listing and ending a user's stored sessions. Its contract includes the session metadata: an
   * adapter with this port stores `createdAt`, `clientDescription`, `clientNetwork`, `error`,
   * `authTime` and `amr` on its sessions (core writes them only then), and returns them from
   * `getSessionAndUser`, `updateSession` and `listSessionsByUserId`.
   */
  sessionListing: ["listSessionsByUserId", "deleteSessionsByUserId", "deleteSession"],
  /** The per-user session epoch that ends JWT sessions. */
  sessionEpochs: ["getUserSessionEpoch", "incrementUserSessionEpoch"],
} as const satisfies Record<string, ReadonlyArray<keyof Adapter>>

/** Every port: the kernel's and those capabilities add. */
export type AllPorts = typeof PORTS & CapabilityPorts

export type PortName = keyof AllPorts

/** The methods of the port `name`: the kernel's list, or the one its capability in `registry` declared. */
export function portMethods(name: PortName, registry: Registry): readonly string[] {
  return (PORTS as Partial<Record<PortName, readonly string[]>>)[name] ?? registry.ports[name] ?? []
}

/** Where a port is asked for: the config's (wrapped) adapter, and its registry, whose capabilities declare ports beside the kernel's. */
export type PortSource = Pick<ResolvedConfig, "adapter" | "registry">

/** The methods `K` of an adapter, all present. */
export type AdapterMethods<K extends keyof Adapter> = { readonly [M in K]-?: NonNullable<Adapter[M]> }

/** The typed handle of the port `N`. */
export type PortMethods<N extends PortName> = AdapterMethods<AllPorts[N][number] & keyof Adapter>

/** The methods of `wanted` that `adapter` lacks. */
export function missingMethods(adapter: Adapter | undefined, wanted: readonly string[]): string[] {
  return wanted.filter((m) => typeof (adapter as Record<string, unknown> | undefined)?.[m] !== "function")
}

/** Whether `adapter` has every method of `wanted`: the typed handle, or undefined. */
export function optionalMethods<const K extends keyof Adapter>(adapter: Adapter | undefined, wanted: readonly K[]): AdapterMethods<K> | undefined {
  return adapter && missingMethods(adapter, wanted).length === 0 ? (adapter as unknown as AdapterMethods<K>) : undefined
}

/** What the refusal says: the feature, and what else would do instead of the methods. */
export interface Purpose {
  /** "Managing sessions", "Passkey provider \"passkey\"": the message starts with it. */
  what: string
  /** Another way to have the feature, appended (", or JWT sessions with session.providerTokens"). */
  otherwise?: string
  /** Facts for `cause` beside `missing` (`provider`, ...). */
  facts?: Record<string, unknown>
}

/**
 * The methods of `wanted` as a typed handle, or `MissingAdapterMethods` ("`what` needs an adapter
 * with ...", `cause.missing`): the one place that error is made. The handle is the (wrapped)
 * adapter itself: no copy, no cost.
 */
export function adapterMethods<const K extends keyof Adapter>(adapter: Adapter | undefined, wanted: readonly K[], purpose: Purpose | string): AdapterMethods<K> {
  const found = optionalMethods(adapter, wanted)
  if (found) return found
  throw missingError(missingMethods(adapter, wanted), purpose)
}

/** The refusal for `missing` methods (also what start-up reports for a configured feature). */
export function missingError(missing: readonly string[], purpose: Purpose | string): MissingAdapterMethods {
  const { what, otherwise, facts } = typeof purpose === "string" ? { what: purpose } : purpose
  return new MissingAdapterMethods(`${what} needs an adapter with ${missing.join(", ")}${otherwise ? `, ${otherwise}` : ""}`, {
    code: "ADAPTER_METHODS_MISSING",
    cause: { ...facts, missing: [...missing] },
  })
}

/**
 * Which ports an adapter implements, answered once per adapter: the session read asks on every
 * request. The resolved adapter is a frozen wrapper (`adapter.ts`), so the answer cannot change.
 */
const implemented = new WeakMap<Adapter, Map<PortName, boolean>>()

function implementsPort(adapter: Adapter, name: PortName, registry: Registry): boolean {
  let known = implemented.get(adapter)
  if (!known) implemented.set(adapter, (known = new Map()))
  let has = known.get(name)
  if (has === undefined) known.set(name, (has = missingMethods(adapter, portMethods(name, registry)).length === 0))
  return has
}

/** The port `name` of the config's adapter as a typed handle, or `MissingAdapterMethods`. */
export function port<N extends PortName>({ adapter, registry }: PortSource, name: N, purpose: Purpose | string): PortMethods<N> {
  if (adapter && implementsPort(adapter, name, registry)) return adapter as unknown as PortMethods<N>
  throw missingError(missingMethods(adapter, portMethods(name, registry)), purpose)
}

/** The port `name` when the config's adapter implements it, else undefined (for features that degrade). */
export function optionalPort<N extends PortName>({ adapter, registry }: PortSource, name: N): PortMethods<N> | undefined {
  return adapter && implementsPort(adapter, name, registry) ? (adapter as unknown as PortMethods<N>) : undefined
}
