/**
 * The one runner of code the application supplies: callbacks, events, `authorize`,
 * `sendVerificationRequest` and adapter methods. Whatever such code throws becomes the error type
 * the spec names for that place, with one cause shape: `{ <what>: <name>, err }` (or `thrown` for
 * a value that is not an Error). The table (also in the README, "User code and its errors"):
 *
 * | site | becomes | code | an `AuthError` thrown on purpose |
 * |---|---|---|---|
 * | `signIn` callback | `AccessDenied`, message = the original | `SIGNIN_CALLBACK_THREW` | passes through |
 * | `jwt`, `session`, `redirect` callbacks | `CallbackError` | `CALLBACK_THREW` | passes through |
 * | `authorize` | `CallbackRouteError` | `AUTHORIZE_THREW` | passes through if client-safe (`CredentialsSignin`) |
 * | `sendVerificationRequest` | `EmailSignInError` | `SEND_FAILED`, or the thrown error's own code | wrapped, code kept |
 * | a provider's `profile`, `account` | `OAuthCallbackError` | `PROVIDER_CALLBACK_THREW` | passes through |
 * | adapter methods | `AdapterError` | `ADAPTER_METHOD_FAILED` | wrapped |
 * | events | `EventError`, logged and never thrown | `EVENT_HANDLER_THREW` | wrapped |
 */
import { AccessDenied, AdapterError, AuthError, CallbackError, CallbackRouteError, EmailSignInError, EventError, OAuthCallbackError } from "../errors/errors.js"
import { logError } from "../errors/logger.js"
import type { LoggerInstance } from "@authlib/jwt"

/** Where user code runs; `name` says which one (a callback, a method, a provider id, an event). */
export type UserCodeSite = "signIn" | "callback" | "provider" | "authorize" | "sendVerificationRequest" | "adapter" | "event"

/** The cause key naming the code that threw, per site. */
const NAMED_BY: Record<UserCodeSite, string> = {
  signIn: "provider",
  callback: "callback",
  provider: "callback",
  authorize: "provider",
  sendVerificationRequest: "provider",
  adapter: "method",
  event: "event",
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

function causeOf(site: UserCodeSite, name: string | undefined, err: unknown): Record<string, unknown> {
  const cause: Record<string, unknown> = {}
  if (name !== undefined) cause[NAMED_BY[site]] = name
  if (err instanceof Error) cause.err = err
  else cause.thrown = String(err)
  return cause
}

/** Whether an error thrown at `site` is kept as it is. */
function passesThrough(site: UserCodeSite, err: unknown): err is AuthError {
  if (!(err instanceof AuthError)) return false
  if (site === "signIn" || site === "callback" || site === "provider") return true
  return site === "authorize" && (err.constructor as typeof AuthError).clientSafe === true
}

/** The error that `err`, thrown by user code at `site`, becomes. */
export function userCodeError(site: UserCodeSite, name: string | undefined, err: unknown): AuthError {
  if (passesThrough(site, err)) return err
  const cause = causeOf(site, name, err)
  switch (site) {
    case "signIn":
      return new AccessDenied(messageOf(err), { code: "SIGNIN_CALLBACK_THREW", cause })
    case "callback":
      return new CallbackError(`callbacks.${name} threw`, { code: "CALLBACK_THREW", cause })
    case "provider":
      return new OAuthCallbackError(`${name} threw`, { code: "PROVIDER_CALLBACK_THREW", cause })
    case "authorize":
      return new CallbackRouteError(`"authorize" of provider "${name}" threw`, { code: "AUTHORIZE_THREW", cause })
    case "sendVerificationRequest": {
      const code = err instanceof AuthError && err.code ? err.code : "SEND_FAILED"
      return new EmailSignInError(`Sending the sign-in e-mail through provider "${name}" failed`, { code, cause })
    }
    case "adapter":
      return new AdapterError(`adapter.${name} failed: ${messageOf(err)}`, { code: "ADAPTER_METHOD_FAILED", cause })
    case "event":
      return new EventError(`events.${name} threw`, { code: "EVENT_HANDLER_THREW", cause })
  }
}

/** Runs `fn` (user code at `site`, called `name`) and maps what it throws (see the table). */
export async function runUserCode<T>(site: UserCodeSite, name: string | undefined, fn: () => T | PromiseLike<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    throw userCodeError(site, name, err)
  }
}

/** Runs an event handler: a throw is logged as `EventError` and never reaches the request. */
export async function runEventHandler(logger: LoggerInstance, name: string, fn: () => unknown): Promise<void> {
  try {
    await fn()
  } catch (err) {
    logError(logger, userCodeError("event", name, err))
  }
}
