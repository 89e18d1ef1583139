/**
 * A time as the text `Date.prototype.toISOString` and `toUTCString` give, computed here in plain
 * arithmetic for the years 1970 to 9999 (every other time goes to `Date`, which stays the
 * reference). Inside a request, a `Date` formatting call cost far more than its time in a loop of
 * its own: the session's `expires` text was about 6% of a `GET /session` and the cookie's
 * `Expires` text about 3% of a sign-in (bench/README.md, sixth round of issue 38).
 * Both are proven equal to `Date`'s own in `test/kernel/objects/date-text.test.ts`.
 */

const DAY_MS = 86_400_000
/** The first millisecond of the year 10000: `Date` writes later years with a sign and six digits. */
const FAST_END = 253_402_300_800_000

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : String(i)))
const WEEKDAYS = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"] // 1 January 1970 was a Thursday
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/** A time's calendar fields in UTC (a proleptic Gregorian date, from its count of days since 1970). */
interface Civil {
  year: number
  /** 1 to 12. */
  month: number
  day: number
  /** Milliseconds since midnight. */
  ofDay: number
  /** Days since 1 January 1970. */
  days: number
}

/**
 * The UTC calendar date of `ms` (0 <= ms < FAST_END): days since the epoch shifted to 1 March of
 * year 0, split into 400-year eras, years of the era and days of a year that starts in March, so
 * that the leap day is the year's last.
 */
function civil(ms: number): Civil {
  const days = Math.floor(ms / DAY_MS)
  const shifted = days + 719_468
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1,
    ofDay: ms - days * DAY_MS,
    days,
  }
}

const fast = (ms: number) => ms >= 0 && ms < FAST_END && Number.isInteger(ms)

/** `hh:mm:ss` of the milliseconds since midnight. */
function clock(ofDay: number): string {
  const seconds = Math.floor(ofDay / 1000)
  return `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`
}

/** `new Date(ms).toISOString()` (`2026-12-29T05:17:55.042Z`); throws a RangeError for an invalid time, as it does. */
export function isoText(ms: number): string {
  if (!fast(ms)) return new Date(ms).toISOString()
  const { year, month, day, ofDay } = civil(ms)
  const milli = ofDay % 1000
  return `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${clock(ofDay)}.${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`
}

/** `new Date(ms).toUTCString()` (`Tue, 29 Dec 2026 05:17:55 GMT`), the text of a cookie's `Expires`. */
export function utcText(ms: number): string {
  if (!fast(ms)) return new Date(ms).toUTCString()
  const { year, month, day, ofDay, days } = civil(ms)
  return `${WEEKDAYS[days % 7]}, ${TWO_DIGITS[day]} ${MONTHS[month - 1]} ${year} ${clock(ofDay)} GMT`
}
