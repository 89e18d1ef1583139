/**
 * The floor for @authlib/jwt: the same wire format (JWE compact, dir + A256CBC-HS512, the Auth.js
 * key and kid) written straight on node:crypto with the key derived once, and only the checks a
 * correct decoder cannot skip (segment count, header, tag in constant time, padding, exp). The
 * functions are async like the real API, so both pay the same promise overhead.
 */
import { Buffer } from "node:buffer"
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomFillSync, randomUUID, timingSafeEqual } from "node:crypto"

/**
 * Random bytes drawn 4 KiB at a time, each handed out once (in a copy), as `@authlib/jwt`'s
 * `randomBytes` draws them: a floor pays no more per call for randomness than authlib does.
 */
const pool = Buffer.alloc(4096)
let pooled = pool.length
export function pooledRandomBytes(length: number): Buffer {
  if (pooled + length > pool.length) {
    randomFillSync(pool)
    pooled = 0
  }
  const out = Buffer.from(pool.subarray(pooled, pooled + length))
  pooled += length
  return out
}

/** The `Expires` text of a time in milliseconds, remembered for the last time asked (as core's cookie serialiser does). */
let lastMs = Number.NaN
let lastText = ""
export function expiresText(ms: number): string {
  if (ms !== lastMs) {
    lastText = new Date(ms).toUTCString()
    lastMs = ms
  }
  return lastText
}

export interface Floor {
  encode(payload: Record<string, unknown>, maxAge?: number): Promise<string>
  decode(token: string): Promise<Record<string, unknown>>
  getToken(headers: Headers, cookieName: string): Promise<Record<string, unknown> | null>
}

export function createFloor(secret: string, salt: string): Floor {
  const info = `Auth.js Generated Encryption Key (${salt})`
  const key = Buffer.from(hkdfSync("sha256", secret, salt, info, 64))
  const macKey = key.subarray(0, 32)
  const encKey = key.subarray(32)
  const thumbprintInput = JSON.stringify({ k: key.toString("base64url"), kty: "oct" })
  const kid = createHash("sha512").update(thumbprintInput).digest("base64url")
  const header = Buffer.from(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid })).toString("base64url")
  const al = Buffer.alloc(8)
  al.writeUInt32BE(header.length * 8, 4)

  const tag = (iv: Buffer, ciphertext: Buffer) =>
    createHmac("sha512", macKey).update(header).update(iv).update(ciphertext).update(al).digest().subarray(0, 32)

  async function encode(payload: Record<string, unknown>, maxAge = 2592000): Promise<string> {
    const iat = Math.floor(Date.now() / 1000)
    const plaintext = JSON.stringify({ ...payload, iat, exp: iat + maxAge, jti: randomUUID() })
    const iv = pooledRandomBytes(16)
    const cipher = createCipheriv("aes-256-cbc", encKey, iv)
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
    return `${header}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag(iv, ciphertext).toString("base64url")}`
  }

  async function decode(token: string): Promise<Record<string, unknown>> {
    const parts = token.split(".")
    if (parts.length !== 5 || parts[0] !== header || parts[1] !== "") throw new Error("malformed")
    const iv = Buffer.from(parts[2]!, "base64url")
    const ciphertext = Buffer.from(parts[3]!, "base64url")
    const received = Buffer.from(parts[4]!, "base64url")
    if (iv.length !== 16 || received.length !== 32 || !timingSafeEqual(received, tag(iv, ciphertext))) {
      throw new Error("decryption failed")
    }
    const decipher = createDecipheriv("aes-256-cbc", encKey, iv)
    const payload = JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8"))
    if (typeof payload.exp === "number" && payload.exp <= Math.floor(Date.now() / 1000) - 15) throw new Error("expired")
    return payload
  }

  async function getToken(headers: Headers, cookieName: string): Promise<Record<string, unknown> | null> {
    const prefix = `${cookieName}=`
    for (const pair of (headers.get("cookie") ?? "").split(";")) {
      const trimmed = pair.trim()
      if (trimmed.startsWith(prefix)) return decode(trimmed.slice(prefix.length)).catch(() => null)
    }
    return null
  }

  return { encode, decode, getToken }
}
