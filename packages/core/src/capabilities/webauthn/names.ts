/**
 * Names a person types for passkeys: a new passkey account's display name (options route) and the
 * names owners give their passkeys (managing passkeys). One rule for both.
 */

/** The longest passkey name kept, in characters (code points). */
export const MAX_PASSKEY_NAME_LENGTH = 64

/** Control and format characters (newlines, NUL, zero-width and bidi controls), line and paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu

/**
 * A name as stored: invisible characters removed, trimmed, cut to {@link MAX_PASSKEY_NAME_LENGTH}
 * characters (never inside a character). `undefined` when nothing is left (or the input is not a
 * string): refused.
 */
export function cleanPasskeyName(input: unknown): string | undefined {
  if (typeof input !== "string") return undefined
  const name = Array.from(input.replace(INVISIBLE, "").trim()).slice(0, MAX_PASSKEY_NAME_LENGTH).join("").trimEnd()
  return name === "" ? undefined : name
}
