/**
 * A passkey as its owner sees it in a list, and the rule for the names they give passkeys. The
 * public key and the counter never leave the server.
 */
import type { AdapterAuthenticator } from "../../kernel/types/adapters.js"
import { storedIdToBase64url, transportsOf } from "../webauthn/index.js"

/** One of the signed-in user's passkeys (`listPasskeys`, GET `passkeys`; dates are ISO strings in JSON). */
export interface PasskeyInfo {
  /** The credential id, base64url: the browser's `PublicKeyCredential.id`. Names the passkey in a rename or delete. */
  id: string
  /** The name its owner gave it, or `null`. */
  name: string | null
  /** When it was registered, or `null` when the adapter does not record it. */
  createdAt: Date | null
  /** When it last signed in, or `null` (never, or not recorded by the adapter). */
  lastUsedAt: Date | null
  /** Whether the passkey is backed up (synced by a password manager or platform account). */
  backedUp: boolean
  /** `"singleDevice"` or `"multiDevice"`, as the authenticator reported it at registration. */
  deviceType: string
  /** How the browser can reach the authenticator (`"internal"`, `"hybrid"`, `"usb"`, ...). */
  transports: string[]
}

export { cleanPasskeyName, MAX_PASSKEY_NAME_LENGTH } from "../webauthn/index.js"

/** A stored date (a `Date`, or a string or number from a JSON store) as a `Date`; `null` when absent or unreadable. */
function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined) return null
  const date = new Date(value as string | number | Date)
  return Number.isNaN(date.getTime()) ? null : date
}

export function passkeyInfo(a: AdapterAuthenticator): PasskeyInfo {
  return {
    id: storedIdToBase64url(a.credentialID),
    name: typeof a.name === "string" ? a.name : null,
    createdAt: dateOf(a.createdAt),
    lastUsedAt: dateOf(a.lastUsedAt),
    backedUp: a.credentialBackedUp === true,
    deviceType: a.credentialDeviceType,
    transports: transportsOf(a.transports) ?? [],
  }
}
