/**
 * Applies a provider's `normalizeIdentifier` (default {@link normalizeEmailAddress}) and turns
 * whatever a custom normaliser throws or returns into one error type, so the routes treat every
 * refused address alike.
 */
import type { EmailConfig } from "../../providers/types.js"
import { InvalidEmailAddress } from "./errors.js"
import { normalizeEmailAddress } from "./normalize-identifier.js"

const MAX_IDENTIFIER_LENGTH = 1024

function isRefusal(err: unknown): err is Error & { code: string; cause?: Record<string, unknown> } {
  // Duck-typed: a provider package may carry its own copy of the class.
  const e = err as { type?: unknown; code?: unknown } | null
  return err instanceof Error && e?.type === "InvalidEmailAddress" && typeof e.code === "string"
}

function refused(provider: EmailConfig, facts: Record<string, unknown>): InvalidEmailAddress {
  return new InvalidEmailAddress("The e-mail address was refused", { code: "EMAIL_REFUSED", cause: { field: "email", provider: provider.id, ...facts } })
}

/** The normalised address of `input`, or an {@link InvalidEmailAddress}. */
export function identifierOf(provider: EmailConfig, input: unknown): string {
  if (!provider.normalizeIdentifier) return normalizeEmailAddress(input)
  // A custom normaliser is typed for strings (as in Auth.js): it never sees anything else.
  if (typeof input !== "string") return normalizeEmailAddress(input)
  let out: unknown
  try {
    out = provider.normalizeIdentifier(input)
  } catch (err) {
    if (err instanceof InvalidEmailAddress) throw err
    if (isRefusal(err)) throw new InvalidEmailAddress(err.message, { code: err.code, cause: { field: "email", provider: provider.id, err } })
    throw refused(provider, err instanceof Error ? { err } : { thrown: String(err) })
  }
  if (typeof out !== "string" || out === "" || out.length > MAX_IDENTIFIER_LENGTH) throw refused(provider, { returned: typeof out })
  return out
}
