/** A compiled entry of `redirectProxyAllowedOrigins` (compiled by `security/origin-patterns.ts`). */
/** One allowed origin, compiled. */
export interface OriginPattern {
  /** The pattern as configured, for messages. */
  readonly source: string
  test(origin: string): boolean
}
