/**
 * A software passkey authenticator for tests, on node:crypto: an ES256 key pair per credential,
 * real authenticator data, client data JSON and signatures, so every negative case the tests try
 * (wrong origin, wrong RP ID, no user verification, an old counter, a tampered byte) is a real,
 * correctly signed response that differs in exactly that one thing.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto"

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url")
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest()

/** The few CBOR shapes WebAuthn needs: unsigned/negative ints, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n])
    if (n < 256) return Buffer.from([(major << 5) | 24, n])
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255])
    const b = Buffer.alloc(5)
    b[0] = (major << 5) | 26
    b.writeUInt32BE(n, 1)
    return b
  }
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)])
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])])
  throw new TypeError(`cbor: unsupported ${typeof value}`)
}

export interface Credential {
  alg: NonNullable<Tweak["alg"]>
  /** The COSE_Key the authenticator reported. */
  cose: Buffer
  id: Buffer
  privateKey: KeyObject
  publicKey: KeyObject
  counter: number
  userHandle: Buffer
}

/** How one response departs from a correct one. */
export interface Tweak {
  origin?: string
  rpId?: string
  userVerified?: boolean
  counter?: number
  type?: string
  challenge?: string
  /** Flip a byte of the signature. */
  tamperSignature?: boolean
  /** Change the client data after signing. */
  tamperClientData?: boolean
  /** Present this id instead of the credential's own. */
  id?: Buffer
  /** register: the credential id in the attested (signed) data. */
  signedId?: Buffer
  /** register: the key type (default ES256). */
  alg?: "ES256" | "ES384" | "RS256" | "EdDSA"
}

/** A new key pair and its COSE_Key for `alg`. */
function newKey(alg: NonNullable<Tweak["alg"]>): { privateKey: KeyObject; publicKey: KeyObject; cose: Buffer } {
  if (alg === "RS256") {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
    const jwk = publicKey.export({ format: "jwk" }) as { n: string; e: string }
    return { privateKey, publicKey, cose: cbor(new Map<number, unknown>([[1, 3], [3, -257], [-1, Buffer.from(jwk.n, "base64url")], [-2, Buffer.from(jwk.e, "base64url")]])) }
  }
  if (alg === "EdDSA") {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519")
    const jwk = publicKey.export({ format: "jwk" }) as { x: string }
    return { privateKey, publicKey, cose: cbor(new Map<number, unknown>([[1, 1], [3, -8], [-1, 6], [-2, Buffer.from(jwk.x, "base64url")]])) }
  }
  const p384 = alg === "ES384"
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: p384 ? "P-384" : "P-256" })
  const jwk = publicKey.export({ format: "jwk" }) as { x: string; y: string }
  const coords: Array<[number, unknown]> = [[-2, Buffer.from(jwk.x, "base64url")], [-3, Buffer.from(jwk.y, "base64url")]]
  return { privateKey, publicKey, cose: cbor(new Map<number, unknown>([[1, 2], [3, p384 ? -35 : -7], [-1, p384 ? 2 : 1], ...coords])) }
}

const HASH = { ES256: "sha256", ES384: "sha384", RS256: "sha256", EdDSA: null } as const

export class SoftAuthenticator {
  readonly credentials: Credential[] = []
  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {}

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])])
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  /** Answers registration `options` (the JSON the options route returned) with a new credential. */
  register(options: { challenge: string; rp: { id: string }; user: { id: string } }, tweak: Tweak = {}) {
    const alg = tweak.alg ?? "ES256"
    const { privateKey, publicKey, cose } = newKey(alg)
    // `signedId` goes into the attested data; `id` (below) is only the JSON's word for it.
    const id = tweak.signedId ?? randomBytes(16)
    const length = Buffer.from([id.length >> 8, id.length & 255])
    const attested = Buffer.concat([Buffer.alloc(16), length, id, cose])
    const uv = tweak.userVerified ?? true
    const authData = this.authData(tweak.rpId ?? this.rpId, 0x01 | (uv ? 0x04 : 0) | 0x40, 0, attested)
    const attestationObject = cbor(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]))
    const clientDataJSON = this.clientData(tweak.type ?? "webauthn.create", tweak.challenge ?? options.challenge, tweak.origin ?? this.origin)
    const credential: Credential = { alg, cose, id: tweak.id ?? id, privateKey, publicKey, counter: 0, userHandle: Buffer.from(options.user.id, "base64url") }
    this.credentials.push(credential)
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }

  /** Answers authentication `options` with `credential` (the last registered one by default). */
  authenticate(options: { challenge: string }, credential = this.credentials.at(-1)!, tweak: Tweak = {}) {
    credential.counter = tweak.counter ?? credential.counter + 1
    const uv = tweak.userVerified ?? true
    const authData = this.authData(tweak.rpId ?? this.rpId, 0x01 | (uv ? 0x04 : 0), credential.counter)
    let clientDataJSON = this.clientData(tweak.type ?? "webauthn.get", tweak.challenge ?? options.challenge, tweak.origin ?? this.origin)
    const signature = sign(HASH[credential.alg], Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey)
    if (tweak.tamperSignature) signature[signature.length - 1]! ^= 1
    if (tweak.tamperClientData) clientDataJSON = Buffer.from(clientDataJSON.toString().replace('"crossOrigin":false', '"crossOrigin":false '))
    return {
      id: b64url(tweak.id ?? credential.id),
      rawId: b64url(tweak.id ?? credential.id),
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: b64url(credential.userHandle) },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }
}
