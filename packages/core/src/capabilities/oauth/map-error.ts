/**
 * Turns what oauth4webapi (or the network) throws during a callback step into core's catalogue:
 * `InvalidCheck` for a failed state/nonce comparison, `OAuthCallbackCancelled` when the user cancelled at the
 * provider, `OAuthCallbackError` for everything else. Each carries a code naming the step and a
 * cause of plain facts; the original error rides along as `cause.err` for the server log.
 */
import * as o from "oauth4webapi"
import { refusedHttpUrl, withInsecureHint } from "./insecure.js"
import { AuthError, InvalidCheck, OAuthCallbackCancelled, OAuthCallbackError, type CallbackStep, type ErrorCode } from "../../kernel/errors/errors.js"


function fromAuthorizationError(err: o.AuthorizationResponseError, provider: string): AuthError {
  const facts = { provider, error: err.error, error_description: err.error_description }
  if (err.error === "access_denied") {
    return new OAuthCallbackCancelled(`Provider "${provider}" answered access_denied: the user cancelled, or the provider refused them`, { code: "AUTHORIZATION_DENIED", cause: facts })
  }
  return new OAuthCallbackError(`Provider "${provider}" answered the authorization request with "${err.error}"`, {
    code: "AUTHORIZATION_RESPONSE_ERROR",
    cause: { ...facts, err },
  })
}

/** The claim or attribute a failed comparison was about, when oauth4webapi says. */
function comparedName(err: o.OperationProcessingError): string | undefined {
  const cause = err.cause as { claim?: unknown; attribute?: unknown } | undefined
  const name = cause?.claim ?? cause?.attribute
  return typeof name === "string" ? name : undefined
}

function fromProcessingError(err: o.OperationProcessingError, step: CallbackStep, provider: string): AuthError {
  const compared = comparedName(err)
  if (compared === "nonce") {
    return new InvalidCheck("nonce check failed: the ID token's nonce does not match", {
      code: "CHECK_NONCE_MISMATCH",
      cause: { check: "nonce", provider, err },
    })
  }
  const message = refusedHttpUrl(err) === undefined ? `${describe(step)} of provider "${provider}" is invalid: ${err.message}` : withInsecureHint(`${describe(step)} of provider "${provider}" failed`, err)
  return new OAuthCallbackError(message, {
    code: specificCode(err, step, compared) ?? `${step}_INVALID`,
    cause: { provider, step, oauthCode: err.code, ...(compared ? { claim: compared } : {}), err },
  })
}

/** A dedicated code for the failures an operator most needs to tell apart. */
function specificCode(err: o.OperationProcessingError, step: CallbackStep, compared: string | undefined): ErrorCode<"OAuthCallbackError"> | undefined {
  if (step === "AUTHORIZATION_RESPONSE" && /"iss"/.test(err.message)) return /missing/.test(err.message) ? "ISSUER_MISSING" : "ISSUER_MISMATCH"
  if (/"alg"/.test(err.message)) return "ID_TOKEN_ALG_REFUSED"
  if (step === "USERINFO" && compared === "sub") return "USERINFO_SUBJECT_MISMATCH"
  if (compared === "iss" || compared === "aud") return compared === "iss" ? "ID_TOKEN_ISS_MISMATCH" : "ID_TOKEN_AUD_MISMATCH"
  if (err.code === o.JWT_TIMESTAMP_CHECK) return "ID_TOKEN_EXPIRED"
  return undefined
}

function describe(step: CallbackStep): string {
  return { AUTHORIZATION_RESPONSE: "The authorization response", TOKEN_RESPONSE: "The token response", ID_TOKEN_SIGNATURE: "The ID token signature", USERINFO: "The userinfo response" }[step]
}

/** Maps an error thrown in `step` for `provider`; core errors pass through unchanged. */
export function mapCallbackError(err: unknown, step: CallbackStep, provider: string): AuthError {
  if (err instanceof AuthError) return err
  if (err instanceof o.AuthorizationResponseError) return fromAuthorizationError(err, provider)
  if (err instanceof o.ResponseBodyError) {
    return new OAuthCallbackError(`Provider "${provider}" answered with "${err.error}" (${describe(step).toLowerCase()})`, {
      code: `${step}_ERROR`,
      cause: { provider, step, error: err.error, error_description: err.error_description, status: err.status, err },
    })
  }
  if (err instanceof o.OperationProcessingError) return fromProcessingError(err, step, provider)
  return new OAuthCallbackError(`${describe(step)} of provider "${provider}" failed: ${(err as Error)?.message ?? String(err)}`, {
    code: `${step}_FAILED`,
    cause: { provider, step, err: err instanceof Error ? err : new Error(String(err)) },
  })
}

/** Runs one callback step, mapping whatever it throws. */
export async function step<T>(name: CallbackStep, provider: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    throw mapCallbackError(err, name, provider)
  }
}
