/**
 * What an error type does in an answer, in one table: its HTTP status on JSON routes, whether the
 * answer carries its `code`, and which page a browser goes to. Whether the user may see the type at
 * all is the class's own `clientSafe`; any other error answers as `Configuration`. Types not listed
 * answer 400 (or their own `status` getter: the management errors derive it from `code`), without
 * their code, and redirect to the error page.
 */
import type { ErrorType } from "./errors.js"

/** One type's policy. */
export interface ErrorPolicy {
  /** The HTTP status of a JSON answer (default 400, or the error's own `status`). */
  readonly status?: number
  /** A JSON answer carries `code` (the client can act on it). */
  readonly codeInJson?: boolean
  /** A refused page request goes back to the sign-in page (default: the error page). */
  readonly page?: "sign-in"
  /** The redirect keeps `code` (it picks the page's text, or tells a script why). */
  readonly codeInRedirect?: boolean
}

export const ERROR_POLICY: Readonly<Partial<Record<ErrorType, ErrorPolicy>>> = {
  Configuration: { status: 500 },
  AccessDenied: { status: 403 },
  MissingCSRF: { status: 403, page: "sign-in" },
  SessionRequired: { status: 401, codeInJson: true },
  // Signed in, but not recently enough: 403, so a client keeps its session and asks for a code.
  // The redirect keeps the code too: a passkey helper or a page tells "verify a second factor" from "sign in again".
  ReauthenticationRequired: { status: 403, codeInJson: true, codeInRedirect: true },
  CredentialsSignin: { codeInJson: true, page: "sign-in", codeInRedirect: true },
  // A failed send keeps its code (SEND_FAILED, SMTP_REJECTED, ...): the page says the mail could
  // not be sent rather than blaming the address, and support can tell the causes apart.
  EmailSignInError: { codeInRedirect: true },
}

/**
 * The policy of a kernel `type` (undefined for types without an entry). Capabilities declare the
 * rows of their own types (`Capability.errors`); the registry merges both (`Registry.policyOf`).
 */
export function policyOf(type: string): ErrorPolicy | undefined {
  return ERROR_POLICY[type as ErrorType]
}
