/** Start-up check of an e-mail provider. */
import { Configuration, type AuthError } from "../../kernel/errors/errors.js"
import { VERIFICATION_METHODS } from "../../kernel/ports/adapter.js"
import { missingError, missingMethods } from "../../kernel/ports/ports.js"
import type { ResolvedConfig } from "../../kernel/types/resolved-config.js"
import type { ProviderConfig } from "../../kernel/types/providers.js"

/** An e-mail provider needs an adapter that can store tokens and users, a sender, and a sane link lifetime. */
export function checkEmailProvider(p: ProviderConfig, resolved: ResolvedConfig): AuthError | undefined {
  const missing = missingMethods(resolved.adapter, VERIFICATION_METHODS)
  if (missing.length) return missingError(missing, { what: `E-mail provider "${p.id}"`, facts: { provider: p.id } })
  const { sendVerificationRequest, maxAge } = p as { sendVerificationRequest?: unknown; maxAge?: unknown }
  if (typeof sendVerificationRequest !== "function")
    return new Configuration(`E-mail provider "${p.id}" has no "sendVerificationRequest" function`, { code: "EMAIL_SENDER_MISSING", cause: { provider: p.id } })
  if (maxAge !== undefined && !(typeof maxAge === "number" && Number.isFinite(maxAge) && maxAge > 0))
    return new Configuration(`E-mail provider "${p.id}": "maxAge" must be a positive number of seconds`, { code: "EMAIL_MAX_AGE_INVALID", cause: { provider: p.id } })
  return undefined
}
