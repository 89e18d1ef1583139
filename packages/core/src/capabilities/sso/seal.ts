/**
 * A connection's secrets at rest (its SP private key, its OIDC client secret): sealed as the TOTP
 * keys are (`two-factor/secret-box.ts`: `@authlib/jwt`'s `encode`, a key HKDF-derived from the auth
 * secret with this module's own salt; every secret of the rotation list opens). The sealed value
 * names its connection and what it is, so someone who can write the table cannot move one
 * connection's key onto another's row.
 */
import { decode, encode } from "@authlib/jwt"
import { Configuration } from "../../kernel/errors/errors.js"

const SALT = "authlib.sso-secret"
/** A sealed secret lives as long as its connection: a century, as `encode` wants a lifetime. */
const MAX_AGE = 100 * 365 * 24 * 60 * 60

/** What a sealed value holds. */
export type SecretKind = "sp-private-key" | "client-secret"

/** `value` sealed for connection `connectionId` with the first of `secrets`. */
export function sealSsoSecret(value: string, kind: SecretKind, connectionId: string, secrets: readonly string[]): Promise<string> {
  return encode({ token: { sub: connectionId, kind, value }, secret: secrets[0]!, salt: SALT, maxAge: MAX_AGE })
}

/** Opens a value sealed by `sealSsoSecret`; `Configuration` `CONFIG_INVALID` (a server error, logged in full) when it does not open as this connection's. */
export async function openSsoSecret(sealed: string, kind: SecretKind, connectionId: string, secrets: readonly string[]): Promise<string> {
  let payload: Record<string, unknown> | null = null
  try {
    payload = await decode({ token: sealed, secret: [...secrets], salt: SALT })
  } catch {
    payload = null
  }
  if (!payload || payload.sub !== connectionId || payload.kind !== kind || typeof payload.value !== "string")
    throw new Configuration(`The ${kind} of SSO connection "${connectionId}" cannot be opened: was the auth secret replaced without keeping the old one, or the stored record altered?`, {
      code: "CONFIG_INVALID",
      cause: { connectionId, kind, reason: "sealed secret unreadable" },
    })
  return payload.value
}
