import { beforeAll, describe, expect, it } from "vitest"
import { base64url } from "jose"
import { JWTSessionError } from "../src/index.js"
import type { JWTSessionErrorCode } from "../src/index.js"
import {
  PAYLOAD,
  SALT,
  SECRET,
  decodeSegment,
  encodeSegment,
  flipBit,
  implementations,
  joseEncrypt,
  joseToken,
  kidOf,
  rawKey,
  withSegment,
} from "./helpers.js"

type Case = [label: string, make: (token: string) => unknown | Promise<unknown>, code: JWTSessionErrorCode]

const headerOf = (token: string) => decodeSegment(token.split(".")[0]!)
const reheader = (token: string, changes: Record<string, unknown>) =>
  withSegment(token, 0, encodeSegment({ ...headerOf(token), ...changes }))

/** Every way a token can be wrong, each with the exact code `decode` must reject it with. */
const corpus: Case[] = [
  ["header: a field added under the right kid (AAD changes)", (t) => reheader(t, { typ: "JWT" }), "DECRYPTION_FAILED"],
  ["header: not JSON", (t) => withSegment(t, 0, base64url.encode("{alg:dir")), "HEADER_INVALID"],
  ["header: a JSON array", (t) => withSegment(t, 0, encodeSegment(["dir"])), "HEADER_INVALID"],
  ["header: kid is a number", (t) => reheader(t, { kid: 7 }), "HEADER_INVALID"],
  ["header: zip DEF", (t) => reheader(t, { zip: "DEF" }), "HEADER_PARAMETER_UNSUPPORTED"],
  ["header: crit", (t) => reheader(t, { crit: ["exp"], exp: 1 }), "HEADER_PARAMETER_UNSUPPORTED"],
  ["iv: one bit flipped", (t) => flipBit(t, 2), "DECRYPTION_FAILED"],
  ["iv: 12 bytes", (t) => withSegment(t, 2, base64url.encode(new Uint8Array(12))), "TOKEN_MALFORMED"],
  ["ciphertext: one bit flipped", (t) => flipBit(t, 3, 5), "DECRYPTION_FAILED"],
  ["ciphertext: last block cut", (t) => withSegment(t, 3, cut(t.split(".")[3]!, 16)), "DECRYPTION_FAILED"],
  ["ciphertext: not whole blocks", (t) => withSegment(t, 3, cut(t.split(".")[3]!, 3)), "TOKEN_MALFORMED"],
  ["tag: one bit flipped", (t) => flipBit(t, 4, -1), "DECRYPTION_FAILED"],
  ["tag: truncated to 16 bytes", (t) => withSegment(t, 4, cut(t.split(".")[4]!, 16)), "TOKEN_MALFORMED"],
  ["tag: removed", (t) => withSegment(t, 4, ""), "TOKEN_MALFORMED"],
  ["segments: iv and tag of another token", async (t) => graft(t), "DECRYPTION_FAILED"],
  ["kid: of an unknown key", (t) => reheader(t, { kid: "AAAA" }), "KID_UNKNOWN"],
  ["alg: none", (t) => reheader(t, { alg: "none" }), "ALG_UNSUPPORTED"],
  ["alg: missing", (t) => withSegment(t, 0, encodeSegment({ enc: "A256CBC-HS512" })), "ALG_UNSUPPORTED"],
  ["alg: A256KW", (t) => reheader(t, { alg: "A256KW" }), "ALG_UNSUPPORTED"],
  ["alg: none as an unsecured JWT", () => `${encodeSegment({ alg: "none" })}.${encodeSegment(PAYLOAD)}.`, "TOKEN_MALFORMED"],
  ["enc: A128CBC-HS256", (t) => reheader(t, { enc: "A128CBC-HS256" }), "ENC_UNSUPPORTED"],
  ["enc: A128GCM", (t) => reheader(t, { enc: "A128GCM" }), "ENC_UNSUPPORTED"],
  ["enc: A128CBC-HS256 made by jose", () => a128Token(), "ENC_UNSUPPORTED"],
  ["segments: a sixth one", (t) => `${t}.AAAA`, "TOKEN_MALFORMED"],
  ["segments: a trailing dot", (t) => `${t}.`, "TOKEN_MALFORMED"],
  ["segments: only four", (t) => t.split(".").slice(0, 4).join("."), "TOKEN_MALFORMED"],
  ["segments: a JWS (three)", () => "eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl", "TOKEN_MALFORMED"],
  ["segments: five empty ones", () => "....", "TOKEN_MALFORMED"],
  ["encrypted key: present", (t) => withSegment(t, 1, "AAAA"), "TOKEN_MALFORMED"],
  ["iv: a spare bit set in its last character", (t) => withSpareBit(t, 2), "TOKEN_MALFORMED"],
  ["tag: a spare bit set in its last character", (t) => withSpareBit(t, 4), "TOKEN_MALFORMED"],
  ["ciphertext: a spare bit set (2 spare bits)", async () => withSpareBit(await sized(3, 3), 3), "TOKEN_MALFORMED"],
  ["ciphertext: a spare bit set (4 spare bits)", async () => withSpareBit(await sized(3, 2), 3), "TOKEN_MALFORMED"],
  ["header: a spare bit set (2 spare bits)", async () => withSpareBit(await sized(0, 3), 0), "TOKEN_MALFORMED"],
  ["header: a spare bit set (4 spare bits)", async () => withSpareBit(await sized(0, 2), 0), "TOKEN_MALFORMED"],
  ["A256GCM tag: a spare bit set", async () => withSpareBit(await gcmToken(), 4), "TOKEN_MALFORMED"],
  ["base64url: standard alphabet (+)", (t) => withSegment(t, 3, `+${t.split(".")[3]!.slice(1)}`), "TOKEN_MALFORMED"],
  ["base64url: padding", (t) => withSegment(t, 2, `${t.split(".")[2]}==`), "TOKEN_MALFORMED"],
  ["base64url: a space", (t) => withSegment(t, 4, ` ${t.split(".")[4]!.slice(1)}`), "TOKEN_MALFORMED"],
  ["base64url: header with %", (t) => `%${t}`, "TOKEN_MALFORMED"],
  ["not a string: number", () => 42, "TOKEN_MALFORMED"],
  ["not a string: object", () => ({ token: "x" }), "TOKEN_MALFORMED"],
  ["payload: a JSON array", async () => withKeyOf("[1,2]"), "PAYLOAD_INVALID"],
  ["payload: not JSON", async () => withKeyOf("sub=1"), "PAYLOAD_INVALID"],
  ["payload: not UTF-8", async () => withKeyOf(new Uint8Array([0x7b, 0xff, 0x7d])), "PAYLOAD_INVALID"],
  ["payload: sub differs from the header", async () => joseToken({ sub: "a" }, { header: { sub: "b" } }), "CLAIM_INVALID"],
  ["secret: a different one", async () => joseToken(PAYLOAD, { secret: "another-secret-another-secret-1234" }), "KID_UNKNOWN"],
]

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/**
 * Sets the lowest bit of the last character of segment `index`. That bit carries no data when the
 * segment length is 2 or 3 mod 4, so lenient decoders read the same bytes: a second string form.
 */
function withSpareBit(token: string, index: number): string {
  const segment = token.split(".")[index]!
  if (segment.length % 4 < 2) throw new Error(`segment ${index} has no spare bits`)
  const last = ALPHABET[ALPHABET.indexOf(segment.at(-1)!) ^ 1]!
  const variant = segment.slice(0, -1) + last
  expect(base64url.decode(variant)).toEqual(base64url.decode(segment))
  return withSegment(token, index, variant)
}

/** A valid jose token whose segment `index` has length `mod` mod 4, found by padding a field. */
async function sized(index: 0 | 3, mod: 2 | 3): Promise<string> {
  for (let pad = 0; pad < 64; pad++) {
    const filler = "x".repeat(pad)
    const token = index === 0 ? await joseToken(PAYLOAD, { header: { typ: filler } }) : await joseToken({ ...PAYLOAD, filler })
    if (token.split(".")[index]!.length % 4 === mod) return token
  }
  throw new Error(`no padding gives segment ${index} a length of ${mod} mod 4`)
}

async function gcmToken(): Promise<string> {
  const key = await rawKey(SECRET, SALT, 32)
  return joseEncrypt(JSON.stringify(PAYLOAD), { alg: "dir", enc: "A256GCM", kid: await kidOf(key) }, key)
}

/** Removes `bytes` bytes from the end of a base64url segment. */
function cut(segment: string, bytes: number): string {
  const decoded = base64url.decode(segment)
  return base64url.encode(decoded.subarray(0, decoded.length - bytes))
}

let other: string
async function graft(token: string): Promise<string> {
  const [, , iv, , tag] = other.split(".")
  return withSegment(withSegment(token, 2, iv!), 4, tag!)
}

async function withKeyOf(plaintext: string | Uint8Array): Promise<string> {
  const key = await rawKey(SECRET, SALT, 64)
  return joseEncrypt(plaintext, { alg: "dir", enc: "A256CBC-HS512", kid: await kidOf(key) }, key)
}

async function a128Token(): Promise<string> {
  const key = (await rawKey(SECRET, SALT, 64)).subarray(0, 32)
  return joseEncrypt(JSON.stringify(PAYLOAD), { alg: "dir", enc: "A128CBC-HS256" }, key)
}

describe.each(implementations)("%s: tampered and malformed tokens", (_, jwt) => {
  let token: string
  beforeAll(async () => {
    token = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT })
    other = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT })
  })

  it("decodes the untampered token (the corpus starts from a valid one)", async () => {
    expect(await jwt.decode({ token, secret: SECRET, salt: SALT })).toMatchObject(PAYLOAD)
  })

  it.each(corpus)("rejects %s", async (_label, make, code) => {
    const tampered = await make(token)
    const error = await jwt.decode({ token: tampered as string, secret: SECRET, salt: SALT }).then(
      (payload) => expect.fail(`decoded to ${JSON.stringify(payload)}`),
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(JWTSessionError)
    expect(error).toMatchObject({ type: "JWTSessionError", name: "JWTSessionError", code })
  })

  it("accepts canonical tokens whatever the segment lengths (ours and jose's, every length mod 4)", async () => {
    const mods = new Set<string>()
    for (let pad = 0; pad < 12; pad++) {
      const claims = { ...PAYLOAD, filler: "x".repeat(pad * 4) }
      const ours = await jwt.encode({ token: claims, secret: SECRET, salt: SALT })
      const theirs = await joseToken(claims, { header: { typ: "x".repeat(pad) } })
      for (const t of [ours, theirs]) {
        expect(await jwt.decode({ token: t, secret: SECRET, salt: SALT })).toMatchObject(claims)
        mods.add(t.split(".").map((segment) => segment.length % 4).join())
      }
    }
    expect(new Set([...mods].map((m) => m.split(",")[3]))).toEqual(new Set(["0", "2", "3"]))
    expect(new Set([...mods].map((m) => m.split(",")[0]))).toEqual(new Set(["0", "2", "3"]))
  })

  it("names the exact cause in the message and keeps the token out of the error", async () => {
    const error = (await jwt.decode({ token: `${token}.x`, secret: SECRET, salt: SALT }).catch((e) => e)) as Error
    expect(error.message).toBe("JWT is malformed: expected 5 segments, got 6")
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(token.slice(0, 40))
    const alg = (await jwt.decode({ token: reheader(token, { alg: "none" }), secret: SECRET, salt: SALT }).catch(
      (e) => e,
    )) as JWTSessionError
    expect(alg).toMatchObject({ message: 'JWT "alg" must be "dir"', cause: { received: "none" } })
  })

  it("reads a header with its fields in another order (not only the byte-identical one)", async () => {
    const key = await rawKey(SECRET, SALT, 64)
    const header = { kid: await kidOf(key), enc: "A256CBC-HS512", alg: "dir", typ: "JWT" }
    const reordered = await joseEncrypt(JSON.stringify(PAYLOAD), header, key)
    expect(headerOf(reordered)).not.toEqual(headerOf(token))
    expect(await jwt.decode({ token: reordered, secret: SECRET, salt: SALT })).toEqual(PAYLOAD)
  })
})
