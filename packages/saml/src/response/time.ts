
import { refuse } from "../errors.js"
import { attr } from "../xml/dom.js"

const XS_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/

/** The clock and tolerance every time check of one verification uses. */
export interface Clock {
  now: number
  skewMs: number
}

/** An `xs:dateTime` attribute as epoch milliseconds, `null` when absent; `MALFORMED` when not a date-time. */
export function timeAttr(el: Element, name: string): number | null {
  const value = attr(el, name)
  if (value === null) return null
  const ms = XS_DATE_TIME.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(ms)) refuse("MALFORMED", `"${name}" of ${el.localName} is not an xs:dateTime`, { received: value.slice(0, 64) })
  return ms
}

/** `NOT_YET_VALID` unless `notBefore` (if any) is at most the skew ahead of now. */
export function requireStarted(notBefore: number | null, clock: Clock, where: string): void {
  if (notBefore !== null && clock.now + clock.skewMs < notBefore) {
    refuse("NOT_YET_VALID", `${where} is not valid yet`, { notBefore: new Date(notBefore).toISOString(), now: new Date(clock.now).toISOString() })
  }
}

/** `EXPIRED` when `notOnOrAfter` (if any) has passed by more than the skew. */
export function requireUnexpired(notOnOrAfter: number | null, clock: Clock, where: string): void {
  if (notOnOrAfter !== null && clock.now - clock.skewMs >= notOnOrAfter) {
    refuse("EXPIRED", `${where} has expired`, { notOnOrAfter: new Date(notOnOrAfter).toISOString(), now: new Date(clock.now).toISOString() })
  }
}
