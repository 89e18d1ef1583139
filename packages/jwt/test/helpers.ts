/** Shared fixtures: both implementations, an independent key derivation, and token surgery. */
import { CompactEncrypt, base64url, calculateJwkThumbprint } from "jose"
import * as nodeEntry from "../src/index.node.js"
import * as webEntry from "../src/index.js"

export type Implementation = Pick<typeof webEntry, "encode" | "decode" | "getToken">

/** Every suite runs against both entries: the WebCrypto one and the node:crypto fast path. */
export const implementations: [string, Implementation][] = [
  ["web entry (WebCrypto)", webEntry],
  ["node entry (node:crypto)", nodeEntry],
]

export const SECRET = "a-secret-of-at-least-32-characters-long!"
export const OLD_SECRET = "the-previous-secret-still-in-rotation!!"
export const SALT = "authlib.session-token"
export const PAYLOAD = { name: "Ada Lovelace", email: "ada@example.com", picture: null, sub: "user-1" }

const encoder = new TextEncoder()

/** HKDF as Auth.js specifies it, written against WebCrypto independently of the package. */
export async function rawKey(secret: string, salt: string, bytes: 64 | 32): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"])
  const info = encoder.encode(`Auth.js Generated Encryption Key (${salt})`)
  const params = { name: "HKDF", hash: "SHA-256", salt: encoder.encode(salt), info }
  return new Uint8Array(await crypto.subtle.deriveBits(params, ikm, bytes * 8))
}

export function kidOf(key: Uint8Array): Promise<string> {
  return calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, key.length === 64 ? "sha512" : "sha256")
}

/** Encrypts arbitrary bytes under an arbitrary header with jose, the reference implementation. */
export function joseEncrypt(
  plaintext: string | Uint8Array,
  header: Record<string, unknown>,
  key: Uint8Array,
): Promise<string> {
  const bytes = typeof plaintext === "string" ? encoder.encode(plaintext) : plaintext
  return new CompactEncrypt(bytes).setProtectedHeader(header as never).encrypt(key)
}

/** A well-formed token of the default construction, made by jose with `claims` as payload. */
export async function joseToken(
  claims: Record<string, unknown>,
  options: { secret?: string; kid?: string | null; header?: Record<string, unknown> } = {},
): Promise<string> {
  const key = await rawKey(options.secret ?? SECRET, SALT, 64)
  const kid = options.kid === undefined ? await kidOf(key) : options.kid
  const header = { alg: "dir", enc: "A256CBC-HS512", ...(kid === null ? {} : { kid }), ...options.header }
  return joseEncrypt(JSON.stringify(claims), header, key)
}

export const encodeSegment = (value: unknown): string => base64url.encode(JSON.stringify(value))
export const decodeSegment = (segment: string): Record<string, unknown> =>
  JSON.parse(new TextDecoder().decode(base64url.decode(segment))) as Record<string, unknown>

/** Replaces segment `index` of a compact token. */
export function withSegment(token: string, index: number, value: string): string {
  const parts = token.split(".")
  parts[index] = value
  return parts.join(".")
}

/** Flips one bit in the decoded bytes of segment `index` (byte `at`, from the end when negative). */
export function flipBit(token: string, index: number, at = 0): string {
  const bytes = base64url.decode(token.split(".")[index]!)
  const position = at < 0 ? bytes.length + at : at
  bytes[position] = bytes[position]! ^ 0x01
  return withSegment(token, index, base64url.encode(bytes))
}

export const now = (): number => Math.floor(Date.now() / 1000)
