/**
 * NextAuth.js v4 itself, for the carry-over tests: `next-auth@4.24`'s `encode` seals a session token
 * as a v4 app does (empty salt), and its cookie store (`SessionStore`, internal to next-auth, loaded
 * from its package folder) chunks the cookie as v4 writes it.
 */
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { encode } from "next-auth/jwt"

const require = createRequire(import.meta.url)
const { SessionStore } = require(join(dirname(require.resolve("next-auth/jwt")), "../core/lib/cookie.js")) as {
  SessionStore: new (
    option: { name: string; options: Record<string, unknown> },
    req: { cookies: Record<string, string>; headers: Record<string, string> },
    logger: Record<string, () => void>,
  ) => { chunk(value: string, options: Record<string, unknown>): Array<{ name: string; value: string }> }
}

/** A v4 session token for `token`, as `next-auth` 4.x writes it with `NEXTAUTH_SECRET` = `secret`. */
export function v4Token(token: Record<string, unknown>, secret: string, maxAge?: number): Promise<string> {
  return encode(maxAge === undefined ? { token, secret } : { token, secret, maxAge })
}

/** The cookies v4's store writes for `value` under `name`: one, or `.0`, `.1`, ... when it is large. */
export function v4Cookies(name: string, value: string): Array<{ name: string; value: string }> {
  const quiet = { debug() {}, warn() {}, error() {} }
  return new SessionStore({ name, options: { secure: name.startsWith("__Secure-") } }, { cookies: {}, headers: {} }, quiet).chunk(value, {})
}
