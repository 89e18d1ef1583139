/**
 * The request path: parse -> config check -> route (the action x method table of the config's registry, with the
 * CSRF check and rate limit the route declares) -> response. This is
 * the single catch: every error raised by a route or flow is mapped here.
 */
import type { ResolvedConfig } from "../types/resolved-config.js"
import { AuthError } from "../errors/errors.js"
import { callerOf, configErrorResponse, errorResponse, rawError, requestErrorResponse } from "./error-response.js"
import { contextOf } from "./context.js"
import { parseRequest } from "./parse-request.js"
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import type { RouteHandler, RouteMethod } from "../types/capability.js"
import { assertCsrf } from "../security/csrf.js"
import { limitClient } from "../rate-limit/limiter.js"
import type { RequestSource } from "./incoming.js"

/** The route's handler, or the handler of the sub-action the body names (any other value: the route's own refusal). */
function handlerOf(route: RouteMethod, req: AuthRequest, ctx: Context): RouteHandler {
  if (route.handler) return route.handler
  const { handlers, refuse } = route.actions!
  const name = req.body.action
  if (typeof name === "string" && Object.hasOwn(handlers, name)) return handlers[name]!
  throw refuse(name, ctx)
}

/** The checks a route declared, then its handler. */
async function run(route: RouteMethod, req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  if (route.csrf) assertCsrf(req, ctx)
  // A group without rules (GET /session by default: apps poll it) costs a length check, no await.
  if (route.rateLimit && ctx.config.rateLimit?.rules[route.rateLimit].length) await limitClient(req, ctx, route.rateLimit)
  return handlerOf(route, req, ctx)(req, ctx)
}

/** Handles `request`; resolves the internal response. In `raw` mode, AuthErrors are thrown. */
export async function dispatch(request: RequestSource, config: ResolvedConfig, clientAddress?: string): Promise<AuthResponse> {
  let req = parseRequest(request, config.basePath, config.registry, clientAddress)
  if (req instanceof Promise) req = await req
  if (req instanceof AuthError) {
    config.logger.debug(req.type, req)
    return requestErrorResponse(req)
  }
  // A fatal misconfiguration was logged once, when the config was resolved. It is answered before
  // any origin is derived: a redirect built from request headers could point at a forged host.
  if (config.error) {
    if (config.raw) throw config.error
    return configErrorResponse(req.action, config)
  }
  const ctx = contextOf(req, config)
  try {
    return await run(config.registry.route(req.action)![req.method]!, req, ctx)
  } catch (err) {
    if (config.raw) throw rawError(err, ctx)
    return errorResponse(err, req.action, ctx, false, callerOf(req))
  }
}
