/**
 * The crypto seam itself: both implementations against the RFC 7518 Appendix B.3 test vector and
 * byte for byte against jose, the reference implementation, in both directions.
 */
import { describe, expect, it, vi } from "vitest"
import { createCipheriv, createHmac } from "node:crypto"
import { CompactEncrypt, base64url, compactDecrypt } from "jose"
import type { JweCrypto } from "../src/crypto/interface.js"
import { nodeCrypto } from "../src/crypto/node.js"
import { webCrypto } from "../src/crypto/web.js"

const fixedIv = vi.hoisted(() => ({ value: undefined as Uint8Array | undefined }))

// Both implementations draw their IV from the pool (random.ts): let a test pin it, as the vector needs.
vi.mock("../src/random.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../src/random.js")>()
  const randomBytes = (length: number): Uint8Array<ArrayBuffer> => (fixedIv.value && length === fixedIv.value.length ? Uint8Array.from(fixedIv.value) : actual.randomBytes(length))
  return { ...actual, randomBytes }
})

const hex = (text: string) => Uint8Array.from(text.match(/[0-9a-f]{2}/g)!, (byte) => parseInt(byte, 16))
const text = new TextDecoder()

/** RFC 7518 Appendix B.3, AES_256_CBC_HMAC_SHA_512. A and P are ASCII. */
const B3 = {
  K: Uint8Array.from({ length: 64 }, (_, i) => i),
  P: "A cipher system must not be required to be secret, and it must be able to fall into the hands of the enemy without inconvenience",
  IV: hex("1a f3 8c 2d c2 b9 6f fd d8 66 94 09 23 41 bc 04"),
  A: "The second principle of Auguste Kerckhoffs",
  E: hex(`4a ff aa ad b7 8c 31 c5 da 4b 1b 59 0d 10 ff bd 3d d8 d5 d3 02 42 35 26 91 2d a0 37 ec bc c7 bd
    82 2c 30 1d d6 7c 37 3b cc b5 84 ad 3e 92 79 c2 e6 d1 2a 13 74 b7 7f 07 75 53 df 82 94 10 44 6b
    36 eb d9 70 66 29 6a e6 42 7e a7 5c 2e 08 46 a1 1a 09 cc f5 37 0d c8 0b fe cb ad 28 c7 3f 09 b3
    a3 b7 5e 66 2a 25 94 41 0a e4 96 b2 e2 e6 60 9e 31 e6 e0 2c c8 37 f0 53 d2 1f 37 ff 4f 51 95 0b
    be 26 38 d0 9d d7 a4 93 09 30 80 6d 07 03 b1 f6`),
  T: hex("4d d3 b4 c0 88 a7 f4 5c 21 68 39 64 5b 20 12 bf 2e 62 69 a8 c5 6a 81 6d bc 1b 26 77 61 95 5b c5"),
}
const b3Parts = {
  header: B3.A,
  iv: base64url.encode(B3.IV),
  ciphertext: base64url.encode(B3.E),
  tag: base64url.encode(B3.T),
}

/** Seals with the IV pinned, for both implementations. */
async function sealWithIv<K>(impl: JweCrypto<K>, key: K, header: string, plaintext: string, iv: Uint8Array) {
  fixedIv.value = iv
  try {
    return await impl.seal(key, header, plaintext)
  } finally {
    fixedIv.value = undefined
  }
}

const impls: [string, JweCrypto<unknown>][] = [
  ["web (WebCrypto)", webCrypto as JweCrypto<unknown>],
  ["node (node:crypto)", nodeCrypto as JweCrypto<unknown>],
]

describe.each(impls)("%s: A256CBC-HS512", (_, impl) => {
  it("decrypts the RFC 7518 B.3 vector", async () => {
    const key = await impl.importKey(B3.K.slice(), "A256CBC-HS512")
    expect(await impl.open(key, b3Parts)).toBe(B3.P)
  })

  it("encrypts the RFC 7518 B.3 vector to exactly E and T", async () => {
    const key = await impl.importKey(B3.K.slice(), "A256CBC-HS512")
    const sealed = await sealWithIv(impl, key, B3.A, B3.P, B3.IV)
    expect(sealed).toBe(`${B3.A}..${b3Parts.iv}.${b3Parts.ciphertext}.${b3Parts.tag}`)
  })

  it("rejects the vector with any bit of its tag, IV, ciphertext or AAD changed", async () => {
    const key = await impl.importKey(B3.K.slice(), "A256CBC-HS512")
    const flip = (bytes: Uint8Array, at: number) => {
      const copy = bytes.slice()
      copy[at] = copy[at]! ^ 0x80
      return base64url.encode(copy)
    }
    for (const at of [0, 15, 31]) expect(await impl.open(key, { ...b3Parts, tag: flip(B3.T, at) })).toBeNull()
    expect(await impl.open(key, { ...b3Parts, iv: flip(B3.IV, 3) })).toBeNull()
    expect(await impl.open(key, { ...b3Parts, ciphertext: flip(B3.E, 100) })).toBeNull()
    expect(await impl.open(key, { ...b3Parts, header: `${B3.A}!` })).toBeNull()
  })

  it("produces the token jose produces for the same key, header, IV and plaintext", async () => {
    const raw = crypto.getRandomValues(new Uint8Array(64))
    const iv = crypto.getRandomValues(new Uint8Array(16))
    const header = { alg: "dir", enc: "A256CBC-HS512", kid: "k" } as const
    const plaintext = JSON.stringify({ sub: "user-1", name: "Zoë 🚀", n: 1 })
    const expected = await new CompactEncrypt(new TextEncoder().encode(plaintext))
      .setProtectedHeader(header)
      .setInitializationVector(iv)
      .encrypt(raw)
    const encodedHeader = expected.split(".")[0]!
    const key = await impl.importKey(raw.slice(), "A256CBC-HS512")
    expect(await sealWithIv(impl, key, encodedHeader, plaintext, iv)).toBe(expected)
  })

  it("is read by jose, and reads jose, for payloads of every padding length", async () => {
    const raw = crypto.getRandomValues(new Uint8Array(64))
    const key = await impl.importKey(raw.slice(), "A256CBC-HS512")
    const header = base64url.encode('{"alg":"dir","enc":"A256CBC-HS512"}')
    for (let length = 0; length <= 48; length++) {
      const plaintext = "x".repeat(length)
      const ours = await impl.seal(key, header, plaintext)
      expect(text.decode((await compactDecrypt(ours, raw)).plaintext)).toBe(plaintext)
      const theirs = await new CompactEncrypt(new TextEncoder().encode(plaintext))
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
        .encrypt(raw)
      const [h, , iv, ciphertext, tag] = theirs.split(".") as [string, string, string, string, string]
      expect(await impl.open(key, { header: h, iv, ciphertext, tag })).toBe(plaintext)
    }
  })

  it("returns null, not an exception, for bad padding under a valid tag", async () => {
    const raw = crypto.getRandomValues(new Uint8Array(64))
    const key = await impl.importKey(raw.slice(), "A256CBC-HS512")
    // One block whose plaintext ends in 0x00: never valid PKCS#7 padding.
    const iv = new Uint8Array(16)
    const cipher = createCipheriv("aes-256-cbc", raw.subarray(32), iv).setAutoPadding(false)
    const ciphertext = new Uint8Array(Buffer.concat([cipher.update(new Uint8Array(16)), cipher.final()]))
    const al = [0, 0, 0, 0, 0, 0, 0, 8]
    const tag = createHmac("sha512", raw.subarray(0, 32))
      .update(new Uint8Array([0x68, ...iv, ...ciphertext, ...al]))
      .digest()
      .subarray(0, 32)
    const parts = { header: "h", iv: base64url.encode(iv), ciphertext: base64url.encode(ciphertext), tag: base64url.encode(tag) }
    expect(await impl.open(key, parts)).toBeNull()
    expect(await impl.open(key, { ...parts, tag: base64url.encode(new Uint8Array(32)) })).toBeNull()
  })
})

describe.each(impls)("%s: A256GCM (legacy tokens)", (_, impl) => {
  it("reads jose's A256GCM tokens and rejects them when tampered", async () => {
    const raw = crypto.getRandomValues(new Uint8Array(32))
    const key = await impl.importKey(raw.slice(), "A256GCM")
    const token = await new CompactEncrypt(new TextEncoder().encode('{"sub":"legacy"}'))
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .encrypt(raw)
    const [header, , iv, ciphertext, tag] = token.split(".") as [string, string, string, string, string]
    expect(await impl.open(key, { header, iv, ciphertext, tag })).toBe('{"sub":"legacy"}')
    const bad = base64url.decode(tag)
    bad[0] = bad[0]! ^ 1
    expect(await impl.open(key, { header, iv, ciphertext, tag: base64url.encode(bad) })).toBeNull()
  })

  it("never encrypts with A256GCM", async () => {
    const key = await impl.importKey(new Uint8Array(32), "A256GCM")
    await expect(impl.seal(key, "h", "{}")).rejects.toThrow("authlib only encrypts with A256CBC-HS512")
  })
})
