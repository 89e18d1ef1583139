/**
 * The `Cookie` request header, split into names and values. This is the `cookie` package's
 * (jshttp, 1.x) algorithm, kept here as ESM: the Qwik binding's module graph reaches the browser
 * in `vite` dev, where Vite serves a package imported from inside `node_modules` as it is, and a
 * CommonJS module there fails to load ("does not provide an export named 'parse'"). A test
 * (`test/kernel/cookies/parse.test.ts`) compares it with the package on generated headers.
 */

/** `name=value` pairs separated by `;`; spaces and tabs around each part are trimmed. */
const SPACE = 0x20
const TAB = 0x09

function trimmed(header: string, start: number, end: number): string {
  while (start < end && (header.charCodeAt(start) === SPACE || header.charCodeAt(start) === TAB)) start++
  while (end > start && (header.charCodeAt(end - 1) === SPACE || header.charCodeAt(end - 1) === TAB)) end--
  return header.slice(start, end)
}

/**
 * Every cookie in `header` as name -> `decode(value)`, the first of each name winning (as the
 * package does; browsers send the most specific path first). A part without `=` is skipped. The
 * result has no prototype, so a cookie named `__proto__` or `constructor` is only a key.
 */
export function parseCookiePairs(header: string, decode: (value: string) => string): Record<string, string> {
  return parseCookiePairsInto(header, decode, Object.create(null) as Record<string, string>)
}

/**
 * {@link parseCookiePairs} into `out`, which may be a plain object: a name is taken when `out` has
 * no own property of it (so `constructor` is a name like any other), and a `__proto__` name
 * assigned a string changes nothing, so it is dropped.
 */
export function parseCookiePairsInto(header: string, decode: (value: string) => string, out: Record<string, string>): Record<string, string> {
  const length = header.length
  // The shortest pair is one character and `=`.
  if (length < 2) return out
  let index = 0
  do {
    const eq = header.indexOf("=", index)
    if (eq === -1) break
    const semicolon = header.indexOf(";", index)
    const end = semicolon === -1 ? length : semicolon
    if (eq > end) {
      // This part has no `=`: go on from the last `;` before the next `=`.
      index = header.lastIndexOf(";", eq - 1) + 1
      continue
    }
    const name = trimmed(header, index, eq)
    if (!Object.hasOwn(out, name)) out[name] = decode(trimmed(header, eq + 1, end))
    index = end + 1
  } while (index < length)
  return out
}
