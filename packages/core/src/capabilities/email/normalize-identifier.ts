/**
 * The default `normalizeIdentifier` of e-mail providers. The typed address becomes the identity the
 * sign-in link is bound to, so whenever it could mean two things (several recipients, a display
 * name, a quoted local part, a look-alike `@`, an invisible character) it is refused, not guessed.
 *
 * Rules, in the order they are checked (the first that fails names the error `code`):
 * 1. a string of at most 1024 characters before trimming; not empty after trimming;
 * 2. no control, format or line/paragraph separator character (zero-width space, soft hyphen,
 *    bidi overrides, NUL, CR/LF);
 * 3. no comma, semicolon or whitespace of any kind (lists, "Name addr", no-break spaces);
 * 4. none of `" < > ( ) [ ] \ : \``  (quoted strings, display names, comments, domain literals,
 *    escapes, source routes);
 * 5. no look-alike of `@` (U+FF20, U+FE6B); then exactly one `@`;
 * 6. local part: ASCII dot-atom (RFC 5322 atext), lower-cased, at most 64 characters; unless
 *    allowed by an option, no RFC 2047 encoded-word (`=?charset?q?text?=`) and no `%` (see
 *    {@link NormalizeEmailOptions});
 * 7. domain: letters, digits, dots and hyphens, or Unicode that is already in NFKC form without
 *    ideographic/full-width dots, converted to punycode by the WHATWG URL parser (UTS #46); at
 *    least two labels of 1-63 characters, no leading or trailing hyphen, not an IP address;
 * 8. the whole address at most 254 characters.
 */
import type { EmailConfig } from "../../kernel/types/providers.js"
import { InvalidEmailAddress } from "../../kernel/errors/errors.js"

/** RFC 5321: at most 64 octets before the `@`. */
export const MAX_LOCAL_PART_LENGTH = 64
/** RFC 5321: at most 254 octets for the whole address (a path of 256 minus the angle brackets). */
export const MAX_ADDRESS_LENGTH = 254
/** Input is refused before any pattern runs over more than this. */
const MAX_INPUT_LENGTH = 1024

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u
const LIST_SEPARATOR = /[,;\s]/u
const FORBIDDEN = /["<>()[\]\\:`]/
const LOOKALIKE_AT = /[\uFF20\uFE6B]/
/** IDNA maps these to `.`: two spellings of one domain. */
const LOOKALIKE_DOT = /[\u3002\uFF0E\uFF61]/
const ATEXT_DOT_ATOM = /^[a-z0-9!#$%&'*+/=?^_{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_{|}~-]+)*$/
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const NON_ASCII = /[^\x00-\x7f]/
/** RFC 2047 `=?charset?B|Q?text?=` (charset may carry an RFC 2231 `*language`). */
const ENCODED_WORD = /=\?[^?]*\?[bq]\?[^?]*\?=/i
const ASCII_OUTSIDE_HOSTNAME = /[\x00-\x2c\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]/

function refuse(code: string, message: string, facts: Record<string, unknown> = {}): never {
  throw new InvalidEmailAddress(message, { code, cause: { field: "email", ...facts } })
}

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`

function checkWholeInput(address: string): void {
  const invisible = INVISIBLE.exec(address)
  if (invisible) refuse("EMAIL_CONTROL_CHARACTER", "The e-mail address contains an invisible or control character", { character: codePoint(invisible[0]) })
  if (LIST_SEPARATOR.test(address)) refuse("EMAIL_SEVERAL_ADDRESSES", "Enter a single e-mail address: commas, semicolons and spaces are not allowed")
  const forbidden = FORBIDDEN.exec(address)
  if (forbidden)
    refuse("EMAIL_FORBIDDEN_CHARACTER", `The e-mail address must not contain ${JSON.stringify(forbidden[0])}: quotes, angle brackets, brackets, parentheses, colons and backslashes are not allowed`, { character: forbidden[0] })
  const at = LOOKALIKE_AT.exec(address)
  if (at) refuse("EMAIL_LOOKALIKE_AT", `The e-mail address contains a look-alike of "@" (${codePoint(at[0])}); type a plain "@"`, { character: codePoint(at[0]) })
}

/**
 * Options of {@link normalizeEmailAddress}. Both default to `false`: the identifier a sign-in link
 * is bound to must name the mailbox the mail reaches, and some mail systems route these forms
 * elsewhere than the address reads.
 */
export interface NormalizeEmailOptions {
  /**
   * Accept an RFC 2047 encoded-word (`=?utf-8?q?...?=`) in the local part. Encoded-words belong in
   * headers, not addresses; some MTAs decode them, so `=?utf-8?q?jane=40corp.example?=@mail.example`
   * may be delivered to an address other than the one stored.
   */
  allowEncodedWords?: boolean
  /**
   * Accept `%` in the local part. Some relays still honour the "percent hack"
   * (`victim%corp.example@relay.example` delivered to `victim@corp.example`).
   */
  allowPercentInLocalPart?: boolean
}

function localPartOf(local: string, options: NormalizeEmailOptions): string {
  // Tested before lower-casing: the Kelvin sign U+212A lower-cases to an ASCII "k".
  if (NON_ASCII.test(local)) refuse("EMAIL_LOCAL_PART_INVALID", 'The part before "@" must use ASCII letters, digits and punctuation only')
  if (!options.allowEncodedWords && ENCODED_WORD.test(local))
    refuse("EMAIL_ENCODED_WORD", 'The part before "@" must not contain an encoded word ("=?...?="): type the address as it is written')
  if (!options.allowPercentInLocalPart && local.includes("%")) refuse("EMAIL_PERCENT_IN_LOCAL_PART", 'The part before "@" must not contain "%"')
  const lower = local.toLowerCase()
  if (!ATEXT_DOT_ATOM.test(lower)) refuse("EMAIL_LOCAL_PART_INVALID", 'The part before "@" is empty, or starts, ends or repeats a dot')
  if (lower.length > MAX_LOCAL_PART_LENGTH) refuse("EMAIL_LOCAL_PART_TOO_LONG", `The part before "@" is longer than ${MAX_LOCAL_PART_LENGTH} characters`)
  return lower
}

const badDomain = (reason: string): never => refuse("EMAIL_DOMAIN_INVALID", `The domain of the e-mail address ${reason}`)

/**
 * The domain's ASCII form. Input UTS #46 would fold (full-width letters, ideographic dots) is refused
 * rather than folded, so one mailbox has exactly one accepted spelling.
 */
function asciiDomain(domain: string): string {
  if (domain.endsWith(".")) badDomain("must not end with a dot")
  if (ASCII_OUTSIDE_HOSTNAME.test(domain)) badDomain("may only contain letters, digits, dots and hyphens")
  if (LOOKALIKE_DOT.test(domain) || domain.normalize("NFKC") !== domain) badDomain("contains look-alike or compatibility characters")
  let host = ""
  try {
    host = new URL(`http://${domain}/`).hostname
  } catch {
    badDomain("is not a valid domain name")
  }
  // The URL parser rewrites numeric hosts such as 0x7f.1; ASCII input must come back unchanged.
  if (!NON_ASCII.test(domain) && host !== domain.toLowerCase()) badDomain("is not a valid domain name")
  return host
}

function domainOf(domain: string): string {
  const ascii = asciiDomain(domain)
  const labels = ascii.split(".")
  if (labels.length < 2) badDomain("needs a dot (a name such as example.com)")
  if (!labels.every((label) => DNS_LABEL.test(label))) badDomain("has an empty, too long or malformed label")
  if (/^\d+$/.test(labels[labels.length - 1]!)) badDomain("must be a name, not an IP address")
  return ascii
}

/**
 * Normalises an e-mail address typed by a user: trimmed, lower-cased, internationalised domain in
 * punycode. Throws {@link InvalidEmailAddress} for anything that is not exactly one plain address;
 * its `message` may be shown to the user, its `code` names the rule. Idempotent on its output.
 *
 * @param options Opt-ins for local-part forms refused by default (see {@link NormalizeEmailOptions}).
 *
 * @example normalizeEmailAddress("  Jane.Doe@Example.COM ") // "jane.doe@example.com"
 * @example
 * // A provider that accepts "%" in local parts:
 * Nodemailer({ server, from, normalizeIdentifier: (id) => normalizeEmailAddress(id, { allowPercentInLocalPart: true }) })
 */
export function normalizeEmailAddress(input: unknown, options: NormalizeEmailOptions = {}): string {
  if (typeof input !== "string") refuse("EMAIL_NOT_A_STRING", "The e-mail address must be a string")
  if (input.length > MAX_INPUT_LENGTH) refuse("EMAIL_TOO_LONG", `The e-mail address is longer than ${MAX_ADDRESS_LENGTH} characters`)
  const address = input.trim()
  if (address === "") refuse("EMAIL_EMPTY", "Enter an e-mail address")
  checkWholeInput(address)
  const parts = address.split("@")
  if (parts.length !== 2) refuse("EMAIL_AT_COUNT", 'The e-mail address must contain exactly one "@"')
  const normalized = `${localPartOf(parts[0]!, options)}@${domainOf(parts[1]!)}`
  if (normalized.length > MAX_ADDRESS_LENGTH) refuse("EMAIL_TOO_LONG", `The e-mail address is longer than ${MAX_ADDRESS_LENGTH} characters`)
  return normalized
}

/* A provider's own `normalizeIdentifier`: whatever it throws or returns becomes one error type, so
 * the routes treat every refused address alike. */

const MAX_IDENTIFIER_LENGTH = 1024

function isRefusal(err: unknown): err is Error & { code: string; cause?: Record<string, unknown> } {
  // Duck-typed: with two versions of @authlib/core installed side by side, each has its own class.
  const e = err as { type?: unknown; code?: unknown } | null
  return err instanceof Error && e?.type === "InvalidEmailAddress" && typeof e.code === "string"
}

function refused(provider: EmailConfig, facts: Record<string, unknown>): InvalidEmailAddress {
  return new InvalidEmailAddress("The e-mail address was refused", { code: "EMAIL_REFUSED", cause: { field: "email", provider: provider.id, ...facts } })
}

/** The normalised address of `input`, or an {@link InvalidEmailAddress}. */
export function identifierOf(provider: EmailConfig, input: unknown): string {
  if (!provider.normalizeIdentifier) return normalizeEmailAddress(input)
  // A custom normaliser is typed for strings (as in Auth.js): it never sees anything else.
  if (typeof input !== "string") return normalizeEmailAddress(input)
  let out: unknown
  try {
    out = provider.normalizeIdentifier(input)
  } catch (err) {
    if (err instanceof InvalidEmailAddress) throw err
    if (isRefusal(err)) throw new InvalidEmailAddress(err.message, { code: err.code, cause: { field: "email", provider: provider.id, err } })
    throw refused(provider, err instanceof Error ? { err } : { thrown: String(err) })
  }
  if (typeof out !== "string" || out === "" || out.length > MAX_IDENTIFIER_LENGTH) throw refused(provider, { returned: typeof out })
  return out
}
