/**
 * `verifySignature`: the WebCrypto path and the node:crypto path give the same answer for every
 * algorithm, on good signatures, tampered data, tampered signatures and malformed DER; and the
 * package entries bind the right one.
 */
import { generateKeyPairSync, sign } from "node:crypto"
import { describe, expect, it } from "vitest"
import { verifySignature as nodeVerify } from "../src/signature/node.js"
import { derToRaw, verifySignature as webVerify } from "../src/signature/web.js"
import type { SignatureAlgorithm } from "../src/signature/types.js"
import * as webEntry from "../src/index.js"
import * as nodeEntry from "../src/index.node.js"

function keyPair(alg: SignatureAlgorithm) {
  const pair =
    alg === "ES256" ? generateKeyPairSync("ec", { namedCurve: "P-256" }) : alg === "RS256" ? generateKeyPairSync("rsa", { modulusLength: 2048 }) : generateKeyPairSync("ed25519")
  return { key: pair.publicKey.export({ format: "jwk" }) as JsonWebKey, sign: (data: Uint8Array) => new Uint8Array(sign(alg === "EdDSA" ? null : "sha256", data, pair.privateKey)) }
}

const data = new TextEncoder().encode("authenticator data || client data hash")

describe.each(["ES256", "RS256", "EdDSA"] as const)("verifySignature %s", (alg) => {
  const { key, sign: signWith } = keyPair(alg)
  const signature = signWith(data)

  it.each([
    ["a good signature", data, signature, true],
    ["other data", new TextEncoder().encode("other data"), signature, false],
    ["a flipped signature byte", data, Uint8Array.from(signature, (b, i) => (i === signature.length - 1 ? b ^ 1 : b)), false],
    ["a truncated signature", data, signature.subarray(0, signature.length - 3), false],
    ["an empty signature", data, new Uint8Array(), false],
  ] as const)("%s: both paths agree (%s)", async (_name, signed, sig, expected) => {
    expect(await webVerify({ key, alg, data: signed, signature: sig })).toBe(expected)
    expect(await nodeVerify({ key, alg, data: signed, signature: sig })).toBe(expected)
  })
})

describe("DER to raw (ECDSA)", () => {
  it("refuses malformed DER instead of guessing", () => {
    expect(derToRaw(new Uint8Array([0x30, 0x02, 0x02, 0x00]))).toBeUndefined()
    expect(derToRaw(new Uint8Array([0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]))).toBeUndefined()
    expect(derToRaw(new Uint8Array([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]))).toEqual(Uint8Array.from({ length: 64 }, (_, i) => (i === 31 ? 1 : i === 63 ? 2 : 0)))
  })
})

describe("entries", () => {
  it("the default entry verifies on WebCrypto, the node entry on node:crypto", () => {
    expect(webEntry.verifySignature).toBe(webVerify)
    expect(nodeEntry.verifySignature).toBe(nodeVerify)
  })
})
