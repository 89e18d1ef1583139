/**
 * NextAuth.js v4 JWT sessions, carried over as Auth.js v5's are (`session.acceptAuthJsSessions`).
 * v4 kept its token in the same cookie names v5 apps may keep (`next-auth.session-token`,
 * `__Secure-next-auth.session-token`, chunked), but sealed it under another key: HKDF of the
 * secret with an empty salt (`@authlib/jwt`'s `decodeNextAuthV4`), where v5 salts with the cookie
 * name. Which construction a carried cookie needs is told by the token's shape, not by trial:
 * only a token in a `next-auth.*` cookie whose header is the one v4 writes (`isNextAuthV4Token`, a
 * string comparison) is tried with v4's key; every other token goes to the v5 construction alone,
 * as before. Early v5 betas wrote that same header under their own key, so a v4-shaped token that
 * v4's key does not open is handed to the v5 construction too. Nothing here runs for a request
 * without an Auth.js cookie.
 *
 * `NEXTAUTH_SECRET` becomes `AUTH_SECRET` with the same value: v4's key is derived from each of
 * `config.secret` in turn. A custom `jwt.decode` is not asked (v4 tokens have one format).
 */
import { decodeNextAuthV4, isNextAuthV4Token, JWTSessionError, type JWT } from "@authlib/jwt"
import type { Context } from "../types/http.js"

/** The session cookie names NextAuth.js v4 wrote (over https and over http). */
const V4_NAMES: ReadonlySet<string> = new Set(["__Secure-next-auth.session-token", "next-auth.session-token"])

/**
 * The payload of the carried cookie `name` when it holds a v4 token that v4's key opens;
 * `undefined` when it is not v4's (another name or shape, or a v4-shaped token v4's key does not
 * open): then the v5 construction decides. Rejects (`JWTSessionError`) for a v4 token that opens
 * but is expired or malformed: it reads as no session, as any token that does not decode.
 */
export async function decodeNextAuthV4Cookie(name: string, raw: string, ctx: Context): Promise<JWT | undefined> {
  if (!V4_NAMES.has(name) || !isNextAuthV4Token(raw)) return undefined
  try {
    return (await decodeNextAuthV4({ token: raw, secret: [...ctx.config.secret] })) ?? undefined
  } catch (err) {
    if (err instanceof JWTSessionError && err.code === "DECRYPTION_FAILED") return undefined
    throw err
  }
}
