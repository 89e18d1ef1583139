/**
 * E-mail (magic link) sign-in through an SMTP server, sent with nodemailer. The sign-in flow
 * itself (token storage, confirm page, single use) lives in core.
 *
 * ```ts
 * import Nodemailer from "@authlib/providers/nodemailer"
 * providers: [Nodemailer({ server: "smtp://127.0.0.1:2525", from: "My App <no-reply@example.com>" })]
 * ```
 * nodemailer is an optional peer dependency: install it in apps that use this provider.
 * @module
 */
import { DEFAULT_EMAIL_MAX_AGE, normalizeEmailAddress, type EmailConfig } from "@authlib/core"
import { sendVerificationRequest } from "./email/send.js"
import { InvalidProviderOptions } from "./errors.js"
import { withOptions } from "./shared/merge.js"
import type { EmailOptions } from "./shared/types.js"

// Core's address normaliser and e-mail errors, re-exported so a custom mail setup finds them here too.
export { EmailSignInError, InvalidEmailAddress, MAX_ADDRESS_LENGTH, MAX_LOCAL_PART_LENGTH, normalizeEmailAddress } from "@authlib/core"
export type { NormalizeEmailOptions } from "@authlib/core"
export { html, text, escapeHtml } from "./email/template.js"
export type { EmailTemplateParams } from "./email/template.js"
export { sendVerificationRequest } from "./email/send.js"

/** Options of the Nodemailer provider. */
export interface NodemailerUserConfig extends EmailOptions {
  /**
   * An SMTP URL (`smtp://user:pass@host:587`, `smtps://...:465`, `smtp://127.0.0.1:2525`) or
   * nodemailer transport options. Required unless you pass your own `sendVerificationRequest`.
   */
  server?: string | Record<string, unknown>
}

/** Sender of the default e-mail when `from` is not set. Set your own: this domain does not resolve. */
export const DEFAULT_FROM = "authlib <no-reply@authlib.local>"
/** Ten minutes (core's `DEFAULT_EMAIL_MAX_AGE`): OWASP ASVS 5.0 asks one-time links to be short-lived. */
export const DEFAULT_MAX_AGE = DEFAULT_EMAIL_MAX_AGE

/** 256 random bits, base64url: the one-time token of a sign-in link. */
export function generateVerificationToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

function checkOptions(options: NodemailerUserConfig): void {
  const custom = typeof options.sendVerificationRequest === "function"
  if (!custom && (options.server === undefined || options.server === null || options.server === "")) {
    throw new InvalidProviderOptions(`Nodemailer: "server" is required (an SMTP URL such as "smtp://127.0.0.1:2525", or transport options)`, { code: "INVALID_PROVIDER_OPTIONS", cause: { provider: options.id ?? "nodemailer", option: "server" } })
  }
  if (options.maxAge !== undefined && !(Number.isInteger(options.maxAge) && options.maxAge > 0)) {
    throw new InvalidProviderOptions(`Nodemailer: "maxAge" must be a positive whole number of seconds`, { code: "INVALID_PROVIDER_OPTIONS", cause: { provider: options.id ?? "nodemailer", option: "maxAge", received: options.maxAge } })
  }
}

/** The Nodemailer e-mail provider: id "nodemailer", links valid 10 minutes, strict address normalising. */
export default function Nodemailer(options: NodemailerUserConfig): EmailConfig {
  checkOptions(options ?? {})
  const preset: EmailConfig = {
    id: "nodemailer",
    name: "Email",
    type: "email",
    from: DEFAULT_FROM,
    maxAge: DEFAULT_MAX_AGE,
    sendVerificationRequest,
    generateVerificationToken,
    normalizeIdentifier: normalizeEmailAddress,
  }
  return withOptions(preset, options)
}
export { Nodemailer }
