/// <reference types="node" />
/**
 * The app callback `toNodeHandler` hands requests to (`auth(req, res, () => app(req, res))`) runs
 * inside the handler, so whatever it throws, or a promise it returns rejects with, is the handler's
 * to catch: on `node:http` nothing else would, and an unhandled rejection ends the process. Express
 * and Connect pass their own `next`, which never throws; guarding it changes nothing for them.
 */
import type { ServerResponse } from "node:http"
import { resolveConfig } from "../kernel/config/resolve.js"
import { configured } from "../registry.js"
import { AuthError } from "../kernel/errors/errors.js"
import { logError } from "../kernel/errors/logger.js"
import type { AuthConfig } from "../kernel/types/config.js"

type Next = (err?: unknown) => void

/**
 * Answers a 500 for an error that escaped the app: JSON naming only the error kind (never a stack
 * or a message), as `/auth/*` answers a server error. An `AuthError` is shown as `Configuration`,
 * the policy of every route; anything else as `InternalServerError`. Headers already sent: the
 * response is ended as it is, since its status can no longer change.
 */
function answer(res: ServerResponse, err: unknown): void {
  if (res.writableEnded) return
  if (!res.headersSent) {
    const body = JSON.stringify({ error: err instanceof AuthError ? "Configuration" : "InternalServerError" })
    res.writeHead(500, { "content-type": "application/json", "cache-control": "private, no-cache, no-store" })
    return void res.end(body)
  }
  res.end()
}

/** Logs through the config's logger, except the configuration's own error: it was logged when the configuration was read. */
function log(config: AuthConfig, err: unknown): void {
  const resolved = resolveConfig(configured(config))
  if (err !== resolved.error) logError(resolved.logger, err)
}

/** `next`, guarded: a throw or a rejected promise from it is logged and answered with a 500. */
export function guardApp(next: Next, res: ServerResponse, config: AuthConfig): Next {
  const fail = (err: unknown) => {
    log(config, err)
    answer(res, err)
  }
  return (err) => {
    try {
      const result: unknown = next(err)
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === "function") Promise.resolve(result).catch(fail)
    } catch (thrown) {
      fail(thrown)
    }
  }
}
