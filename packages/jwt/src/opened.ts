/**
 * Tokens decrypted lately: each token's plaintext and header, by the derived key that opened it and
 * the token's text. A browser sends the same cookie with every request (and a page often reads its session
 * more than once), and decrypting the same text with the same key gives the same plaintext: a
 * token found here is not decrypted again, and its payload is parsed once more at most (`payloadOf`).
 * Its claims are still checked on every `decode` (an expired token is refused however it was
 * opened), and every `decode` gets a copy of its own.
 *
 * Only tokens the key's own secret opened are kept, and the key is the first secret's: a token
 * of an older secret is decrypted every time, so it is refused again as soon as that secret
 * leaves the rotation. Memory stays bounded, whatever the number of keys: two generations of at
 * most `GENERATION` tokens of at most `MAX_TOKEN_LENGTH` characters each, in all.
 */
import { parsePayload } from "./claims.js"
import type { ProtectedHeader } from "./compact.js"
import type { JWT } from "./types.js"

/** A token as it was opened: its plaintext (the payload's JSON) and its protected header. */
export interface Opened {
  readonly plaintext: string
  readonly header: ProtectedHeader
  /** The plaintext parsed, once a look-up found the token (never handed out: see `payloadOf`). */
  payload?: JWT
}

/**
 * The payload of a token found again, as a copy of its own: the plaintext is parsed the first time
 * the token is found (a token decoded once pays nothing more), and copied from then on.
 */
export function payloadOf(opened: Opened): JWT {
  return copyPayload((opened.payload ??= parsePayload(opened.plaintext)))
}

/**
 * A deep copy of a parsed JSON value, as `JSON.parse` of its text would give it again (a fourth of
 * the time): own keys in order, a `__proto__` key defined as an own property, never assigned (so it
 * sets no prototype). Callers may change what `decode` answers, nested objects included, without
 * touching the remembered payload.
 */
export function copyPayload<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length)
    for (let i = 0; i < value.length; i++) items[i] = copyPayload(value[i])
    return items as T
  }
  const out: Record<string, unknown> = {}
  const keys = Object.keys(value)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const item = copyPayload((value as Record<string, unknown>)[key])
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
    else out[key] = item
  }
  return out as T
}

/** Tokens per generation: the last 256 to 512 tokens opened are found again. */
const GENERATION = 256
/** Longer tokens (a session carrying provider tokens, in several cookie chunks) are not kept. */
const MAX_TOKEN_LENGTH = 4096

/** Characters of a token's end that key it: its tag (and for short tags a little ciphertext). */
const KEY_LENGTH = 32

/** A token kept: the key that opened it and its whole text, which a look-up must match, and how it was opened. */
interface Kept {
  readonly key: object
  readonly token: string
  readonly opened: Opened
}

/**
 * Tokens opened lately (least recently found forgotten first, a generation at a time).
 * Looked up by the token's last characters, then compared whole: a cookie is a new string on every
 * request, and hashing all its 600 characters for the look-up cost more than the rest of a hit. A
 * text that shares the end of a kept token but differs anywhere else is not found.
 */
export class OpenedTokens {
  #current = new Map<string, Kept>()
  #previous = new Map<string, Kept>()

  /** `token` as `key` (a derived key's entry) opened it lately, if it did. */
  get(key: object, token: string): Opened | undefined {
    const end = token.slice(-KEY_LENGTH)
    const found = this.#current.get(end)
    if (found !== undefined) return found.key === key && found.token === token ? found.opened : undefined
    const older = this.#previous.get(end)
    if (older === undefined || older.key !== key || older.token !== token) return undefined
    // Found again: it moves to the current generation, so tokens in use outlive those that are not.
    this.keep(key, token, older.opened)
    return older.opened
  }

  /** Remembers that `key` opened `token`. */
  keep(key: object, token: string, opened: Opened): void {
    if (token.length > MAX_TOKEN_LENGTH) return
    if (this.#current.size >= GENERATION) {
      this.#previous = this.#current
      this.#current = new Map()
    }
    this.#current.set(token.slice(-KEY_LENGTH), { key, token, opened })
  }

  /** Tokens held now (tests: the bound). */
  get size(): number {
    return this.#current.size + this.#previous.size
  }
}

/** The tokens every key opened lately, in one bounded table. */
export const openedTokens = new OpenedTokens()
