/**
 * The registry: every capability's declarations merged once into look-up tables (action -> route,
 * provider type -> sign-in type, page -> route, error type -> policy, port -> methods) and the complete
 * catalogues (rate-limit defaults, error codes) the kernel's own tables start. Two capabilities
 * claiming one action, provider type, page, rate-limit group, error type or port is a programming
 * error, thrown when the registry is assembled (at module load, so a test catches it).
 */
import { KERNEL_ERROR_CODES, type ErrorCodes } from "../errors/codes.js"
import { policyOf, type ErrorPolicy } from "../errors/policy.js"
import { KERNEL_RATE_LIMITS, type RateLimitDefaults } from "../rate-limit/options.js"
import type { ProviderType } from "../types/model.js"
import type { ResolvedConfig } from "../types/resolved-config.js"
import type {
  AnyOptionsDeclaration, BeforeIssueHook, ErrorText, Capability, FootholdHook, FreshnessHook, HeldSignInHook, RouteDeclaration, SignInTypeDeclaration, SignOutHook,
} from "../types/capability.js"
import type { Registry } from "../types/registry.js"

export type { Registry } from "../types/registry.js"

/** `into[key] = value`, refusing a key another capability (or the kernel) has. */
function claim<V>(into: Map<string, V>, key: string, value: V, what: string, capability: Capability): void {
  if (into.has(key)) throw new Error(`capability "${capability.name}" declares ${what} "${key}", which another capability (or the kernel) declares`)
  into.set(key, value)
}

/**
 * The catalogue's types: the kernel's in their order, each capability type just before the type it
 * names (`ErrorDeclaration.before`, when listed by then), else before the first that sorts after it.
 */
function catalogueOrder(codes: ReadonlyMap<string, readonly string[]>, before: ReadonlyMap<string, string>): string[] {
  const order = Object.keys(KERNEL_ERROR_CODES)
  for (const type of codes.keys()) {
    if (order.includes(type)) continue
    const named = order.indexOf(before.get(type) ?? "")
    const after = named !== -1 ? named : order.findIndex((other) => other > type)
    order.splice(after === -1 ? order.length : after, 0, type)
  }
  return order
}

/** Refuses a set of capabilities in which one lacks a capability it builds on (`Capability.requires`). */
function checkRequirements(capabilities: readonly Capability[]): void {
  const present = new Set(capabilities.map((c) => c.name))
  for (const capability of capabilities)
    for (const needed of capability.requires ?? [])
      if (!present.has(needed)) throw new Error(`capability "${capability.name}" requires capability "${needed}", which this registry leaves out: add "${needed}" or leave "${capability.name}" out too`)
}

export function assembleRegistry(capabilities: readonly Capability[]): Registry {
  checkRequirements(capabilities)
  const routes = new Map<string, RouteDeclaration>()
  const signInTypes = new Map<string, SignInTypeDeclaration>()
  const pages = new Map<string, string>()
  const limits = new Map<string, RateLimitDefaults[keyof RateLimitDefaults]>(Object.entries(KERNEL_RATE_LIMITS))
  const codes = new Map<string, readonly string[]>(Object.entries(KERNEL_ERROR_CODES))
  const policies = new Map<string, ErrorPolicy>()
  const placed = new Map<string, string>()
  const ports = new Map<string, readonly string[]>()
  const texts = new Map<string, ErrorText>()
  for (const capability of capabilities) {
    for (const route of capability.routes ?? []) {
      if (route.POST && !route.POST.csrf && !route.POST.csrfBy) throw new Error(`capability "${capability.name}": POST ${route.action} needs the kernel's CSRF check or "csrfBy"`)
      for (const method of [route.GET, route.POST])
        if (method && !method.handler === !method.actions) throw new Error(`capability "${capability.name}": a method of ${route.action} needs a handler or sub-actions, not both`)
      claim(routes, route.action, route, "action", capability)
      if (route.page) claim(pages, route.page, route.action, "page", capability)
    }
    for (const [type, declared] of Object.entries(capability.signInTypes ?? {})) claim(signInTypes, type, declared, "the sign-in type", capability)
    for (const [group, rules] of Object.entries(capability.rateLimits ?? {})) claim(limits, group, Object.freeze([...rules]), "rate-limit group", capability)
    for (const { type, codes: own, policy, before, text } of capability.errors ?? []) {
      // A kernel type may gain codes (the capability's own causes); a new type is the capability's.
      if (type in KERNEL_ERROR_CODES) codes.set(type, [...(codes.get(type) ?? []), ...own])
      else claim(codes, type, own, "error type", capability)
      // A kernel type's policy is the kernel's: a capability cannot change what it answers.
      if (policy && type in KERNEL_ERROR_CODES) throw new Error(`capability "${capability.name}" declares the error policy of "${type}", which the kernel declares`)
      if (policy) claim(policies, type, policy, "the error policy of", capability)
      if (text) claim(texts, type, text, "the page text of", capability)
      if (before !== undefined) placed.set(type, before)
    }
    for (const [name, methods] of Object.entries(capability.ports ?? {}) as [string, readonly string[]][]) claim(ports, name, Object.freeze([...methods]), "adapter port", capability)
  }
  const methods = new Map([...routes].map(([action, r]) => [action, (["GET", "POST"] as const).filter((m) => r[m] !== undefined)]))
  const oneStepHooks = capabilities.flatMap((c) => (c.oneStepMultiFactor ? [c.oneStepMultiFactor.bind(c)] : []))
  const lifetimeHooks = capabilities.flatMap((c) => (c.secondFactorLifetime ? [c.secondFactorLifetime.bind(c)] : []))
  const every = <K extends keyof Capability>(key: K) => Object.freeze(capabilities.flatMap((c) => (c[key] ? [c[key] as NonNullable<Capability[K]>] : [])))
  return Object.freeze({
    capabilities: Object.freeze([...capabilities]),
    actions: new Set(routes.keys()),
    route: (action: string) => routes.get(action),
    methods: (action: string) => methods.get(action) ?? [],
    actionsOf: (action: string, method: "GET" | "POST") => Object.keys(routes.get(action)?.[method]?.actions?.handlers ?? {}),
    signInType: (type: ProviderType) => signInTypes.get(type),
    page: (key: string) => pages.get(key),
    signOutRedirects: every("signOutRedirect"),
    beforeIssue: every("beforeIssue"),
    heldSignIn: every("heldSignIn"),
    freshness: every("freshness"),
    footholds: every("removeFootholds"),
    sessionFields: every("sessionFields"),
    oneStepMultiFactor: (config: ResolvedConfig) => oneStepHooks.every((hook) => hook(config)),
    secondFactorLifetime: (config: ResolvedConfig) =>
      lifetimeHooks.reduce<number | null>((strictest, hook) => {
        const seconds = hook(config)
        return seconds !== null && (strictest === null || seconds < strictest) ? seconds : strictest
      }, null),
    options: Object.freeze(capabilities.flatMap((c): AnyOptionsDeclaration[] => (c.options ? [c.options] : []))),
    rateLimits: Object.freeze(Object.fromEntries(limits)) as RateLimitDefaults,
    errorCodes: Object.freeze(Object.fromEntries(catalogueOrder(codes, placed).map((type) => [type, Object.freeze([...(codes.get(type) ?? [])])]))) as unknown as ErrorCodes,
    policyOf: (type: string) => policyOf(type) ?? policies.get(type) ?? {},
    errorText: (type: string) => texts.get(type),
    ports: Object.freeze(Object.fromEntries(ports)),
    portMethods: Object.freeze([...ports.values()].flat()),
    bodyFields: new Set(capabilities.flatMap((c) => c.beforeIssue?.bodyFields ?? [])),
  })
}
