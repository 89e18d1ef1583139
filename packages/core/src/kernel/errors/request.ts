/**
 * Errors of a request as it arrives: malformed, unknown, cross-site, too many, or without the
 * session it needs.
 */
import { CataloguedError, type CataloguedErrorOptions } from "./catalogued.js"

/** A state-changing POST without a valid CSRF token, or from another origin. */
export class MissingCSRF extends CataloguedError<"MissingCSRF"> {
  static override type = "MissingCSRF"
  declare type: "MissingCSRF"
  static override clientSafe = true
}

/** A `callbackUrl` the `redirect` callback did not return as a usable URL. */
export class InvalidCallbackUrl extends CataloguedError<"InvalidCallbackUrl"> {
  static override type = "InvalidCallbackUrl"
  declare type: "InvalidCallbackUrl"
}

/** The request names an action that does not exist. */
export class UnknownAction extends CataloguedError<"UnknownAction"> {
  static override type = "UnknownAction"
  declare type: "UnknownAction"
}

/** The request names a provider that is not configured, or one whose type cannot do this step. */
export class InvalidProvider extends CataloguedError<"InvalidProvider"> {
  static override type = "InvalidProvider"
  declare type: "InvalidProvider"
}

/** The request itself is malformed: body, cookies, encoding, size. Answered with a 4xx JSON error. */
export class InvalidRequest extends CataloguedError<"InvalidRequest"> {
  static override type = "InvalidRequest"
  declare type: "InvalidRequest"
  static override clientSafe = true
  /** The HTTP status to answer with. */
  readonly status: number
  constructor(message?: string, options: CataloguedErrorOptions<"InvalidRequest"> & { status?: number } = {}) {
    const { status, ...rest } = options
    super(message, rest)
    this.status = status ?? 400
  }
}

/** The request uses a method the action does not accept. Answered with 405. */
export class MethodNotAllowed extends CataloguedError<"MethodNotAllowed"> {
  static override type = "MethodNotAllowed"
  declare type: "MethodNotAllowed"
  static override clientSafe = true
}

/**
 * Too many attempts (`LIMIT_REACHED`, HTTP 429), or the rate-limit store failed and the limits fail
 * closed (`STORE_UNAVAILABLE`, HTTP 503). `retryAfter` is the number of seconds after which a new
 * attempt may pass (also sent as `Retry-After`). The same answer whether or not the account exists.
 */
export class RateLimited extends CataloguedError<"RateLimited"> {
  static override type = "RateLimited"
  declare type: "RateLimited"
  static override clientSafe = true
  /** Seconds until a new attempt may pass (at least 1). */
  readonly retryAfter: number
  constructor(message?: string, options: CataloguedErrorOptions<"RateLimited"> & { retryAfter?: number } = {}) {
    const { retryAfter, ...rest } = options
    super(message ?? "Too many attempts", rest)
    this.code ??= "LIMIT_REACHED"
    this.retryAfter = Math.max(1, Math.ceil(retryAfter ?? 60))
  }
  /** The HTTP status of the answer, from `code`. */
  get status(): number {
    return this.code === "STORE_UNAVAILABLE" ? 503 : 429
  }
}

/**
 * The request needs a signed-in user and carries no valid session (managing passkeys). Client-safe;
 * the JSON answer is 401.
 */
export class SessionRequired extends CataloguedError<"SessionRequired"> {
  static override type = "SessionRequired"
  declare type: "SessionRequired"
  static override clientSafe = true
}

/**
 * The request has a session, but not a recent enough authentication for what it asks (step-up):
 * `AUTHENTICATION_TOO_OLD` (signed in longer ago than allowed) or `SECOND_FACTOR_REQUIRED` (no
 * second factor verified recently enough). The user stays signed in and refreshes the session with
 * a code (the capability that asks for the second factor says how). Client-safe; the JSON answer is 403: the
 * user is known (a 401 would read as "signed out" to clients that then drop the session).
 */
export class ReauthenticationRequired extends CataloguedError<"ReauthenticationRequired"> {
  static override type = "ReauthenticationRequired"
  declare type: "ReauthenticationRequired"
  static override clientSafe = true
}
