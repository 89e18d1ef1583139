/**
 * How a preset and the user's options become one provider config. Auth.js semantics: the user's
 * options win, plain objects merge key by key (so `authorization: { params: { prompt } }` keeps the
 * preset's `scope`), and the user's own object is kept as `options` so core can tell what was set.
 */

/** A value built with `{}` or `Object.create(null)`: the only kind of object merged key by key. */
function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (value === null || typeof value !== "object") return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/**
 * Deep-merges `override` over `base` into a new object; neither input is written to.
 * `undefined` in `override` keeps the base value, so `GitHub({ clientId: undefined })` still lets
 * `setEnvDefaults` fill `clientId` later. Arrays and functions are replaced, never merged.
 */
export function deepMerge<T extends Record<PropertyKey, unknown>>(base: T, override: Record<PropertyKey, unknown> | undefined): T {
  const out: Record<PropertyKey, unknown> = { ...base }
  if (!override) return out as T
  // Symbol keys count: core's markers (such as its allow-insecure-requests symbol) are symbols.
  for (const key of Reflect.ownKeys(override)) {
    const value = override[key]
    if (value === undefined || key === "__proto__" || !Object.prototype.propertyIsEnumerable.call(override, key)) continue
    const current = out[key]
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value
  }
  return out as T
}

/**
 * Returns the preset with the user's options merged over it and kept as `options`.
 * `type` is the preset's and cannot be overridden: a GitHub preset is always an OAuth 2 provider.
 * The preset is type-checked where it is declared (see `shared/types.ts`); `R` is the core type the
 * factory returns.
 */
export function withOptions<R>(preset: { type: string }, options: object | undefined): R {
  const user = options ?? {}
  const merged = deepMerge(preset as Record<PropertyKey, unknown>, user as Record<PropertyKey, unknown>)
  return { ...merged, type: preset.type, options: user } as R
}
