/**
 * Verifies a passkey assertion (WebAuthn Level 3, 7.2) for the key types authenticators use, with
 * SHA-256 in-process and the signature through `@authlib/jwt`'s `verifySignature` (node:crypto on
 * Node, WebCrypto elsewhere): no thread-pool job per hash or key import. Each failed check has its
 * own code. Keys of other types go to `@simplewebauthn/server` (see `flow.ts`).
 */
import { verifySignature, type SignatureAlgorithm } from "@authlib/jwt"
import { sha256 } from "@noble/hashes/sha2.js"
import type { ErrorCode } from "../../kernel/errors/errors.js"
import { WebAuthnVerificationError } from "./errors.js"
import { decodeBase64 } from "./encoding.js"

export interface AssertionCheck {
  response: { type?: unknown; response: Record<string, unknown> }
  expectedChallenge: string
  expectedOrigin: string | string[]
  expectedRPID: string
  /** The stored public key (see `coseToJwk`) and counter. */
  key: { key: JsonWebKey; alg: SignatureAlgorithm }
  counter: number
  requireUserVerification: boolean
  provider: string
}

export interface VerifiedAssertion {
  newCounter: number
  userVerified: boolean
  backedUp: boolean
}

const UP = 0x01
const UV = 0x04
const BS = 0x10

const decoder = new TextDecoder("utf-8", { fatal: true })
const rpIdHashes = new Map<string, Uint8Array>()

function fail(code: ErrorCode<"WebAuthnVerificationError">, message: string, provider: string): never {
  throw new WebAuthnVerificationError(`The passkey response was refused: ${message}`, { code, cause: { provider } })
}

function field(response: Record<string, unknown>, name: string, provider: string): Uint8Array {
  const value = response[name]
  const bytes = typeof value === "string" ? decodeBase64(value) : undefined
  if (!bytes) fail("RESPONSE_INVALID", `response.${name} is not base64url`, provider)
  return bytes
}

function clientDataOf(bytes: Uint8Array, provider: string): { type?: unknown; challenge?: unknown; origin?: unknown; crossOrigin?: unknown } {
  try {
    const parsed: unknown = JSON.parse(decoder.decode(bytes))
    if (parsed && typeof parsed === "object") return parsed
  } catch {
    // fall through
  }
  return fail("RESPONSE_INVALID", "clientDataJSON is not a JSON object", provider)
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

function rpIdHash(rpId: string): Uint8Array {
  let hash = rpIdHashes.get(rpId)
  if (!hash) rpIdHashes.set(rpId, (hash = sha256(new TextEncoder().encode(rpId))))
  return hash
}

/** Checks `check.response` against the challenge, origin, RP ID, flags, counter and signature. */
export async function verifyAssertion(check: AssertionCheck): Promise<VerifiedAssertion> {
  const { provider, key } = check
  if (check.response.type !== "public-key") fail("RESPONSE_INVALID", 'type must be "public-key"', provider)
  const clientDataJSON = field(check.response.response, "clientDataJSON", provider)
  const authData = field(check.response.response, "authenticatorData", provider)
  const signature = field(check.response.response, "signature", provider)
  const client = clientDataOf(clientDataJSON, provider)
  if (client.type !== "webauthn.get") fail("VERIFICATION_FAILED", `unexpected client data type ${JSON.stringify(client.type)}`, provider)
  if (client.challenge !== check.expectedChallenge) fail("CHALLENGE_INVALID", "the response answers another challenge", provider)
  const origins = Array.isArray(check.expectedOrigin) ? check.expectedOrigin : [check.expectedOrigin]
  if (typeof client.origin !== "string" || !origins.includes(client.origin)) fail("ORIGIN_MISMATCH", `unexpected origin ${JSON.stringify(client.origin)}`, provider)
  if (client.crossOrigin === true) fail("ORIGIN_MISMATCH", "the response was made in a cross-origin frame", provider)
  if (authData.length < 37) fail("RESPONSE_INVALID", "authenticatorData is too short", provider)
  if (!sameBytes(authData.subarray(0, 32), rpIdHash(check.expectedRPID))) fail("RP_ID_MISMATCH", "unexpected RP ID hash", provider)
  const flags = authData[32]!
  if (!(flags & UP)) fail("VERIFICATION_FAILED", "the user was not present", provider)
  if (check.requireUserVerification && !(flags & UV)) fail("USER_VERIFICATION_MISSING", "user verification was required but not performed", provider)
  const counter = ((authData[33]! << 24) >>> 0) + ((authData[34]! << 16) | (authData[35]! << 8) | authData[36]!)
  if ((counter > 0 || check.counter > 0) && counter <= check.counter)
    fail("COUNTER_REGRESSION", `counter ${counter} is not above the stored ${check.counter}`, provider)
  const signed = new Uint8Array(authData.length + 32)
  signed.set(authData, 0)
  signed.set(sha256(clientDataJSON), authData.length)
  if (!(await verifySignature({ key: key.key, alg: key.alg, data: signed, signature }))) fail("SIGNATURE_INVALID", "the signature does not verify", provider)
  return { newCounter: counter, userVerified: (flags & UV) !== 0, backedUp: (flags & BS) !== 0 }
}
