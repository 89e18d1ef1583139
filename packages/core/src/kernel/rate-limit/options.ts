/**
 * The `rateLimit` option: its public shape, the defaults, and its resolved form. Limits are on
 * unless the app passes `rateLimit: false`; every group can be changed or switched off alone.
 */
import { compileTrustedProxies } from "./client-address.js"
import { defaultMemoryStore } from "./memory-store.js"
import type { KernelRateLimitGroup, ProxyTrust, RateLimitGroup, RateLimitOptions, RateLimitRule, RateLimitRules, ResolvedRateLimit, ResolvedRule, TrustedProxies } from "../types/rate-limit.js"
import type { RateLimitStore } from "../types/rate-limit-store.js"

export type { CapabilityRateLimitGroups, RateLimitGroup, RateLimitOptions, RateLimitRule, RateLimitRules, ResolvedRateLimit, ResolvedRule } from "../types/rate-limit.js"

/** The default rules of the kernel's groups; capabilities declare theirs (`Capability.rateLimits`). */
export const KERNEL_RATE_LIMITS: Readonly<Record<KernelRateLimitGroup, readonly RateLimitRule[]>> = {
  "csrf.perClient": [{ limit: 60, window: 60 }],
  "session.perClient": [],
}

/** The default rules of every group: the kernel's and the registry's (see `registry/assemble.ts`). */
export type RateLimitDefaults = Readonly<Record<RateLimitGroup, readonly RateLimitRule[]>>

function groupOption(options: RateLimitOptions, group: RateLimitGroup): RateLimitRules | undefined {
  const [section, name] = group.split(".") as [keyof RateLimitOptions, string]
  const value = options[section] as Record<string, unknown> | undefined
  return value?.[name] as RateLimitRules | undefined
}

const isRule = (rule: unknown): rule is RateLimitRule => {
  const { limit, window } = (rule ?? {}) as { limit?: unknown; window?: unknown }
  return Number.isInteger(limit) && (limit as number) >= 0 && typeof window === "number" && Number.isFinite(window) && window > 0
}

/** The problems of `options` (each naming the option that fixes it); empty when it is usable. */
export function rateLimitProblems(options: RateLimitOptions | false | undefined, defaults: RateLimitDefaults): string[] {
  if (options === false || options === undefined) return []
  if (typeof options !== "object" || options === null) return ['"rateLimit" must be an object or false']
  const problems: string[] = []
  for (const group of Object.keys(defaults) as RateLimitGroup[]) {
    const value = groupOption(options, group)
    if (value === undefined || value === false) continue
    const rules = Array.isArray(value) ? value : [value]
    if (!rules.every(isRule)) problems.push(`"rateLimit.${group}" must be false or rules { limit: integer >= 0, window: seconds > 0 }`)
  }
  const store = options.store as Partial<RateLimitStore> | undefined
  if (store !== undefined && (typeof store?.hit !== "function" || typeof store.reset !== "function")) problems.push('"rateLimit.store" must have "hit" and "reset" methods (see RateLimitStore)')
  if (options.trustedProxies !== undefined) {
    try {
      compileTrustedProxies(options.trustedProxies)
    } catch (err) {
      problems.push(`rateLimit.${(err as Error).message}`)
    }
  }
  return problems
}

function resolveRules(options: RateLimitOptions, group: RateLimitGroup, defaults: RateLimitDefaults): readonly ResolvedRule[] {
  const value = groupOption(options, group)
  const rules = value === undefined ? defaults[group] : value === false ? [] : Array.isArray(value) ? value : [value as RateLimitRule]
  // Shortest window first: the limiter stops at the first refusal (see limiter.ts `count`).
  const sorted = [...rules].sort((a, b) => a.window - b.window)
  return Object.freeze(sorted.map((r) => Object.freeze({ limit: r.limit, windowMs: Math.round(r.window * 1000), prefix: `${group}:${r.window}:` })))
}

/** The compiled proxies; an invalid declaration (reported by `rateLimitProblems`) trusts none. */
function trustOf(value: TrustedProxies | undefined): ProxyTrust | undefined {
  if (value === undefined) return undefined
  try {
    return compileTrustedProxies(value)
  } catch {
    return undefined
  }
}

/**
 * The resolved limits, or undefined when they are off. `options` is the option once
 * `rateLimitProblems` found none in it (else undefined: the defaults); `written`, the option as the
 * app wrote it, is kept for the capabilities' own settings, which they check themselves.
 */
export function resolveRateLimit(options: RateLimitOptions | false | undefined, defaults: RateLimitDefaults, written: RateLimitOptions | false | undefined = options): ResolvedRateLimit | undefined {
  if (options === false || written === false) return undefined
  const o = options ?? {}
  const rules = {} as Record<RateLimitGroup, readonly ResolvedRule[]>
  for (const group of Object.keys(defaults) as RateLimitGroup[]) rules[group] = resolveRules(o, group, defaults)
  return Object.freeze({
    store: o.store ?? defaultMemoryStore(),
    trust: trustOf(o.trustedProxies),
    failOpen: o.failOpen === true,
    rules: Object.freeze(rules),
    options: typeof written === "object" && written !== null ? written : o,
  })
}
