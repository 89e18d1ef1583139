/**
 * How a server function (`listPasskeys(request, config)`, ...) runs: the configuration resolved as
 * `Auth()` resolves it (cached per config object, a fatal problem thrown; an `action` its registry
 * lacks refused as `UnknownAction`), the app's own request
 * read for its cookies and headers, the same per-request context as a route, and errors as `raw`
 * callers get them (client-safe ones as they are; any other logged in full first).
 */
import { resolveConfig } from "../config/resolve.js"
import { contextOf } from "../http/context.js"
import { rawError } from "../http/error-response.js"
import { UnknownAction } from "../errors/errors.js"
import { serverCallRequest } from "../http/parse-request.js"
import type { AuthAction, AuthRequest, Context } from "../types/http.js"
import type { AuthConfig } from "../types/config.js"

export async function serverCall<T>(request: Request, config: AuthConfig, action: AuthAction, run: (req: AuthRequest, ctx: Context) => Promise<T>): Promise<T> {
  const resolved = resolveConfig(config)
  if (resolved.error) throw resolved.error
  // A capability the config runs without: its functions refuse as its routes do.
  if (!resolved.registry.actions.has(action)) throw new UnknownAction(`Action ${action} is not available`, { code: "ACTION_UNAVAILABLE" })
  const req = serverCallRequest(request, action)
  const ctx = contextOf(req, resolved)
  try {
    return await run(req, ctx)
  } catch (err) {
    throw rawError(err, ctx)
  }
}
