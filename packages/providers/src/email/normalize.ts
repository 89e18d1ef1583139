/**
 * The default `normalizeIdentifier` of e-mail providers. The address a user types becomes the
 * identity the sign-in link is bound to, so it is refused rather than guessed at whenever it could
 * mean two things: several recipients, a display name, a quoted local part, a look-alike `@`.
 */
import { InvalidEmailAddress } from "../errors.js"

/** RFC 5321 limits: 64 octets of local part, 254 for the whole path without angle brackets. */
export const MAX_LOCAL_PART_LENGTH = 64
export const MAX_ADDRESS_LENGTH = 254
/** Longer input is refused before any pattern runs over it. */
const MAX_INPUT_LENGTH = 1024

const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u
const SEPARATOR = /[,;\s]/u
/** Quoted strings, display names, comments, domain literals, escapes, source routes. */
const FORBIDDEN = /["<>()[\]\\:`]/
/** Characters that look like `@` (Unicode confusables of U+0040). */
const LOOKALIKE_AT = /[\uFF20\uFE6B]/
/** Characters that IDNA treats as dots: they would silently turn into `.`. */
const LOOKALIKE_DOT = /[\u3002\uFF0E\uFF61]/
/** RFC 5322 dot-atom of atext, ASCII only. */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_{|}~-]+)*$/
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

function refuse(message: string, code: string, cause: Record<string, unknown> = {}): never {
  throw new InvalidEmailAddress(message, { code, cause: { field: "email", ...cause } })
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`
}

/** Refusals that apply to the whole input, before it is split at `@`. */
function checkCharacters(address: string): void {
  const control = CONTROL.exec(address)
  if (control) refuse("The e-mail address contains an invisible or control character", "EMAIL_CONTROL_CHARACTER", { character: codePoint(control[0]) })
  if (SEPARATOR.test(address)) refuse("Enter a single e-mail address: commas, semicolons and spaces are not allowed", "EMAIL_SEVERAL_ADDRESSES")
  const forbidden = FORBIDDEN.exec(address)
  if (forbidden) refuse(`The e-mail address must not contain ${JSON.stringify(forbidden[0])}: quotes, angle brackets, brackets, parentheses, colons and backslashes are not allowed`, "EMAIL_FORBIDDEN_CHARACTER", { character: forbidden[0] })
  const at = LOOKALIKE_AT.exec(address)
  if (at) refuse(`The e-mail address contains a look-alike of "@" (${codePoint(at[0])}); type a plain "@"`, "EMAIL_LOOKALIKE_AT", { character: codePoint(at[0]) })
}

function normalizeLocalPart(local: string): string {
  // Checked before lower-casing: "\u212A".toLowerCase() is an ASCII "k".
  if (/[^\x00-\x7f]/.test(local)) refuse("The part before \"@\" must use ASCII letters, digits and punctuation only", "EMAIL_LOCAL_PART_INVALID")
  const lower = local.toLowerCase()
  if (!LOCAL_PART.test(lower)) refuse("The part before \"@\" is empty, or starts, ends or repeats a dot", "EMAIL_LOCAL_PART_INVALID")
  if (lower.length > MAX_LOCAL_PART_LENGTH) refuse(`The part before "@" is longer than ${MAX_LOCAL_PART_LENGTH} characters`, "EMAIL_LOCAL_PART_TOO_LONG")
  return lower
}

function invalidDomain(reason: string): never {
  return refuse(`The domain of the e-mail address ${reason}`, "EMAIL_DOMAIN_INVALID")
}

/**
 * An internationalised domain becomes its ASCII (punycode) form through the WHATWG URL parser
 * (UTS #46). Input that UTS #46 would have to fold first (full-width letters, ideographic dots,
 * other compatibility characters) is refused instead, so one mailbox has one spelling.
 */
function toAsciiDomain(domain: string): string {
  if (domain.endsWith(".")) invalidDomain("must not end with a dot")
  if (/[\x00-\x7f]/.test(domain.replace(/[A-Za-z0-9.-]/g, ""))) invalidDomain("may only contain letters, digits, dots and hyphens")
  if (LOOKALIKE_DOT.test(domain) || domain.normalize("NFKC") !== domain) invalidDomain("contains look-alike or compatibility characters")
  let host: string
  try {
    host = new URL(`http://${domain}/`).hostname
  } catch {
    return invalidDomain("is not a valid domain name")
  }
  if (/^[\x00-\x7f]*$/.test(domain) && host !== domain.toLowerCase()) invalidDomain("is not a valid domain name")
  return host
}

function normalizeDomain(domain: string): string {
  const ascii = toAsciiDomain(domain)
  const labels = ascii.split(".")
  if (labels.length < 2) invalidDomain("needs a dot (a name such as example.com)")
  if (!labels.every((label) => LABEL.test(label))) invalidDomain("has an empty, too long or malformed label")
  if (/^\d+$/.test(labels.at(-1)!)) invalidDomain("must be a name, not an IP address")
  return ascii
}

/**
 * Normalises an e-mail address typed by a user: trims it, lower-cases it, converts an
 * internationalised domain to punycode, and refuses anything that is not exactly one plain
 * address (see the package README for the full list). Throws {@link InvalidEmailAddress}, whose
 * `message` can be shown to the user and whose `code` names the rule.
 *
 * @example normalizeEmailAddress("  Jane.Doe@Example.COM ") // "jane.doe@example.com"
 */
export function normalizeEmailAddress(input: unknown): string {
  if (typeof input !== "string") refuse("The e-mail address must be a string", "EMAIL_NOT_A_STRING")
  if (input.length > MAX_INPUT_LENGTH) refuse(`The e-mail address is longer than ${MAX_ADDRESS_LENGTH} characters`, "EMAIL_TOO_LONG")
  const address = input.trim()
  if (address === "") refuse("Enter an e-mail address", "EMAIL_EMPTY")
  checkCharacters(address)
  const parts = address.split("@")
  if (parts.length !== 2) refuse("The e-mail address must contain exactly one \"@\"", "EMAIL_AT_COUNT")
  const normalized = `${normalizeLocalPart(parts[0]!)}@${normalizeDomain(parts[1]!)}`
  if (normalized.length > MAX_ADDRESS_LENGTH) refuse(`The e-mail address is longer than ${MAX_ADDRESS_LENGTH} characters`, "EMAIL_TOO_LONG")
  return normalized
}
