/**
 * The `otpauth://totp/...` URI of a key (the "Key URI Format" every authenticator app reads, as a
 * QR code or a link): `otpauth://totp/<issuer>:<account>?secret=...&issuer=...&algorithm=...&digits=...&period=...`.
 * Issuer and account are percent-encoded (`encodeURIComponent`: a space is `%20`, never `+`,
 * which some apps would show literally); the secret is unpadded base32.
 */
import { Configuration } from "../../kernel/errors/errors.js"
import { base32Encode } from "./base32.js"
import type { TotpKey } from "./totp.js"

/** What the URI names: the service and the user's account in it, as the app will list them. */
export interface OtpauthLabel {
  /** The service ("Example"): shown as the entry's title; must not contain ":", which ends it in the label. */
  issuer: string
  /** The account within it, usually the e-mail address. */
  account: string
}

const ALGORITHM_NAMES = { "SHA-1": "SHA1", "SHA-256": "SHA256", "SHA-512": "SHA512" } as const

/** Why `issuer` cannot name a TOTP issuer (`undefined`: it can); also checked at start-up for `twoFactor.issuer`. */
export function issuerProblem(issuer: unknown): Configuration | undefined {
  // Apps split the label at its first colon (literal or %3A), so only the issuer must be free of one.
  if (typeof issuer === "string" && issuer.trim() !== "" && !issuer.includes(":")) return undefined
  return new Configuration('The TOTP "issuer" must be a non-empty string without ":"', { code: "CONFIG_INVALID", cause: { option: "issuer" } })
}

function checkLabel({ issuer, account }: OtpauthLabel): void {
  const problem = issuerProblem(issuer)
  if (problem) throw problem
  if (typeof account !== "string" || account.trim() === "") {
    throw new Configuration('The TOTP "account" must be a non-empty string', { code: "CONFIG_INVALID", cause: { option: "account" } })
  }
}

/**
 * The key URI of `key` for `label`. Every parameter is written, defaults included (`digits`,
 * `period`, `algorithm`), so an app that guesses differently still makes the right codes. Throws
 * `Configuration` (`CONFIG_INVALID`) for an empty issuer or account, or an issuer with ":".
 */
export function otpauthUri(key: TotpKey, label: OtpauthLabel): string {
  checkLabel(label)
  const issuer = encodeURIComponent(label.issuer)
  const query = [
    `secret=${base32Encode(key.secret)}`,
    `issuer=${issuer}`,
    `algorithm=${ALGORITHM_NAMES[key.algorithm]}`,
    `digits=${key.digits}`,
    `period=${key.period}`,
  ]
  return `otpauth://totp/${issuer}:${encodeURIComponent(label.account)}?${query.join("&")}`
}
