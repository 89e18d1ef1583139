/**
 * Records as cache values: JSON in which a `Date` is `{"$date": iso}`, read back as a `Date`, so a
 * cached session or user has the exact types the adapter answered (`expires`, `emailVerified`...).
 */

/** The JSON of `value`, its `Date`s tagged. */
export function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    // `v` is already `toJSON()`'s string for a Date: the original is on the holder.
    const original = key === "" ? value : this[key]
    return original instanceof Date ? { $date: Number.isNaN(original.getTime()) ? null : original.toISOString() } : v
  })
}

/** The value `encode` wrote, its tagged `Date`s revived. */
export function decode<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const keys = Object.keys(v)
      if (keys.length === 1 && keys[0] === "$date") {
        const iso = (v as { $date: unknown }).$date
        return new Date(typeof iso === "string" ? iso : Number.NaN)
      }
    }
    return v
  }) as T
}
