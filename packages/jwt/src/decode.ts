import { checkClaims, nowSeconds, parsePayload } from "./claims.js"
import { checkSegments, parseHeader, splitCompact } from "./compact.js"
import type { ProtectedHeader } from "./compact.js"
import type { JweCrypto, SealedParts } from "./crypto/interface.js"
import type { KeyEntry, KeyLookup } from "./derive-key.js"
import { saltOf, secretsOf } from "./params.js"
import { tokenError } from "./errors.js"
import { openedTokens, payloadOf } from "./opened.js"
import type { JWT, JWTDecodeParams } from "./types.js"

/** What `decode` needs from its runtime: the crypto and the derived-key cache built on it. */
export interface DecodeContext<K> {
  crypto: JweCrypto<K>
  keys: KeyLookup<K>
}

/**
 * Reads the header. The header of a token we issued is byte-identical to the one cached with the
 * first secret's key, so the hot path skips base64url and JSON entirely.
 */
function readHeader<K>(first: KeyEntry<K>, encoded: string): ProtectedHeader {
  if (encoded === first.header) return first.parsed
  return parseHeader(encoded)
}

/**
 * Tries each secret's key in rotation order. With a `kid`, only the key it names is tried (a `kid`
 * that no secret derives is rejected without trial decryption, as Auth.js does); without one,
 * every secret is tried in order. `first` is the first secret's A256CBC-HS512 key, already at hand.
 * A token the first secret opens is remembered (opened.ts); one of an older secret is not.
 */
async function openWithSecrets<K>(
  ctx: DecodeContext<K>,
  secrets: string[],
  salt: string,
  header: ProtectedHeader,
  parts: SealedParts,
  first: KeyEntry<K>,
  token: string,
): Promise<string> {
  let candidates = 0
  for (let i = 0; i < secrets.length; i++) {
    const entry = i === 0 && header.enc === first.enc ? first : await ctx.keys(secrets[i]!, salt, header.enc)
    if (header.kid !== undefined && entry.kid !== header.kid) continue
    candidates++
    const plaintext = await ctx.crypto.open(entry.key, parts)
    if (plaintext === null) continue
    if (entry === first) openedTokens.keep(first, token, { plaintext, header })
    return plaintext
  }
  if (candidates === 0) {
    throw tokenError("KID_UNKNOWN", 'JWT "kid" matches none of the secrets', { secrets: secrets.length })
  }
  throw tokenError("DECRYPTION_FAILED", "JWT could not be decrypted with any of the secrets", {
    secrets: secrets.length,
  })
}

/**
 * Decrypts and validates a token. `undefined`, `null` and `""` resolve `null` (no token is not an
 * error); every invalid token rejects with a `JWTSessionError` whose `code` names the cause. A
 * token the first secret opened lately is not decrypted again (opened.ts); its claims are checked
 * on every call.
 */
export async function decodeWith<K>(ctx: DecodeContext<K>, params: JWTDecodeParams): Promise<JWT | null> {
  const secrets = secretsOf(params.secret, "decode")
  const salt = saltOf(params.salt, "decode")
  const token: unknown = params.token
  if (token === undefined || token === null || token === "") return null
  // Anything but a string is refused by `splitCompact` (it throws: malformed).
  if (typeof token !== "string") splitCompact(token)
  const text = token as string
  const first = await ctx.keys(secrets[0]!, salt, "A256CBC-HS512")
  const known = openedTokens.get(first, text)
  if (known !== undefined) return validPayload(known.header, payloadOf(known))
  const parts = splitCompact(text)
  const header = readHeader(first, parts.header)
  checkSegments(parts, header.enc)
  return validPayload(header, parsePayload(await openWithSecrets(ctx, secrets, salt, header, parts, first, text)))
}

/** `payload`, once its claims hold now (checked for every decode, a remembered token's too). */
function validPayload(header: ProtectedHeader, payload: JWT): JWT {
  checkClaims(header.fields, payload, nowSeconds())
  return payload
}
