/**
 * The request path: parse -> config check -> route (method x action table) -> response. This is
 * the single catch: every error raised by a route or flow is mapped here.
 */
import type { ResolvedConfig } from "../config/types.js"
import { AuthError } from "../errors/errors.js"
import { callback } from "../routes/callback.js"
import { csrf } from "../routes/csrf.js"
import { errorPage } from "../routes/error.js"
import { providers } from "../routes/providers.js"
import { getSession, updateSession } from "../routes/session.js"
import { signinPage, signinProvider } from "../routes/signin.js"
import { signout, signoutPage } from "../routes/signout.js"
import { verifyRequest } from "../../capabilities/email/verify-request-route.js"
import { webauthnOptionsRoute } from "../../capabilities/webauthn/options-route.js"
import { changePasskeyRoute, listPasskeysRoute } from "../../capabilities/passkey-management/route.js"
import { changeSessionsRoute, listSessionsRoute } from "../../capabilities/session-management/route.js"
import { callerOf, configErrorResponse, errorResponse, rawError, requestErrorResponse } from "./error-response.js"
import { contextOf } from "./context.js"
import { parseRequest } from "./parse-request.js"
import type { AuthAction, AuthRequest, AuthResponse, Context } from "./types.js"

type Handler = (req: AuthRequest, ctx: Context) => Promise<AuthResponse>

const routes: Record<AuthAction, Partial<Record<"GET" | "POST", Handler>>> = {
  providers: { GET: providers },
  csrf: { GET: csrf },
  session: { GET: getSession, POST: updateSession },
  signin: { GET: signinPage, POST: signinProvider },
  callback: { GET: callback, POST: callback },
  signout: { GET: signoutPage, POST: signout },
  "verify-request": { GET: verifyRequest },
  error: { GET: errorPage },
  "webauthn-options": { GET: webauthnOptionsRoute },
  passkeys: { GET: listPasskeysRoute, POST: changePasskeyRoute },
  sessions: { GET: listSessionsRoute, POST: changeSessionsRoute },
}

const methods = new Map(Object.entries(routes).map(([action, table]) => [action, Object.keys(table)]))
const allowed = (action: AuthAction) => methods.get(action) ?? []

/** Handles `request`; resolves the internal response. In `raw` mode, AuthErrors are thrown. */
export async function dispatch(request: Request, config: ResolvedConfig, clientAddress?: string): Promise<AuthResponse> {
  const req = await parseRequest(request, config.basePath, allowed, clientAddress)
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
    return await routes[req.action][req.method]!(req, ctx)
  } catch (err) {
    if (config.raw) throw rawError(err, ctx)
    return errorResponse(err, req.action, ctx, false, callerOf(req.request))
  }
}
