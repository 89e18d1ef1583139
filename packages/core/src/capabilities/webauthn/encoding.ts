/**
 * The encodings of WebAuthn data: the browser and `@simplewebauthn/server` speak base64url, while
 * stored authenticators use standard base64 for `credentialID` and `credentialPublicKey` (the
 * layout Auth.js writes, so passkeys registered under Auth.js keep working).
 */
import { base64url } from "../../kernel/security/random.js"

/** Bytes of a base64 or base64url string (padding optional); `undefined` when it is neither. */
export function decodeBase64(value: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(value) || value.length % 4 === 1) return undefined
  const standard = value.replaceAll("-", "+").replaceAll("_", "/").replace(/=+$/, "")
  try {
    const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4))
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  } catch {
    return undefined
  }
}

/** Standard base64 with padding, as stored. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** A stored (base64) credential id as the browser names it (base64url). */
export function storedIdToBase64url(stored: string): string {
  return base64url(decodeBase64(stored) ?? new Uint8Array())
}

/** The stored form of a credential id the browser sent (base64url), or `undefined` if malformed. */
export function credentialIdToStored(id: string): string | undefined {
  const bytes = decodeBase64(id)
  return bytes && bytes.length > 0 ? toBase64(bytes) : undefined
}

/** `usb,internal` <-> `["usb", "internal"]`, as Auth.js stores transports. */
export function transportsOf(stored: string | null | undefined): string[] | undefined {
  return stored ? stored.split(",").filter(Boolean) : undefined
}
