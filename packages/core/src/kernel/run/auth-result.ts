/**
 * The request path without the last step: the internal result of a request (status, redirect,
 * JSON or HTML, cookies as objects), errors already mapped to responses as `Auth()` maps them.
 * `Auth()` turns it into a `Response`; in-process bindings read it directly (no cookie or JSON
 * serialisation to parse back).
 */
import { resolveConfig } from "../config/resolve.js"
import { dispatch } from "../http/dispatch.js"
import type { AuthResponse } from "../types/http.js"
import type { AuthConfig, AuthRequestOptions } from "../types/config.js"

/** The internal result of `request` under `config` (with `raw` in the config, errors are thrown instead). */
export function authResult(request: Request, config: AuthConfig, options?: AuthRequestOptions): Promise<AuthResponse> {
  return dispatch(request, resolveConfig(config), options?.clientAddress)
}
