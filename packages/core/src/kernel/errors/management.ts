/**
 * Errors of the management functions that the kernel throws or reads itself: sessions (the session
 * strategies end a user's sessions) and provider tokens (a session carries `error` once a refresh
 * token is refused). Passkey and linked-account management declare their errors in their folders.
 */
import { CataloguedError } from "./catalogued.js"

/**
 * `getAccessToken` could not give a valid access token: the user has no account of that provider
 * (`ACCOUNT_NOT_LINKED`), the token expired and there is no refresh token (`REFRESH_TOKEN_MISSING`),
 * the provider refused the refresh token (`INVALID_GRANT`: revoked, expired or already used; sign the
 * user in with the provider again), or the refresh failed twice for another reason (`REFRESH_FAILED`:
 * network, a 5xx, an answer that does not validate). The stored tokens are unchanged in every case.
 * Named after the `session.error` value of Auth.js's refresh guide.
 */
export class RefreshTokenError extends CataloguedError<"RefreshTokenError"> {
  static override type = "RefreshTokenError"
  declare type: "RefreshTokenError"
  /**
   * With tokens kept in a JWT session (`session.providerTokens`) and `INVALID_GRANT`: the
   * `Set-Cookie` values of the session re-issued with `error: "RefreshTokenError"`; send them.
   */
  setCookie?: string[]
  /**
   * How loud the log is when a server function hands this to the app: a user without an account of
   * the provider is an answer the app asked for (`debug`); a provider refusing a refresh token, or
   * a token that cannot be refreshed, happens to users (`warn`); only a refresh that failed
   * (network, 5xx, an invalid answer) is for the operator to look at (`error`).
   */
  get logLevel(): "debug" | "warn" | "error" {
    return this.code === "ACCOUNT_NOT_LINKED" ? "debug" : this.code === "REFRESH_FAILED" ? "error" : "warn"
  }
}
