/// <reference types="node" />
/**
 * `toNodeHandler(config)`: a `(req, res, next?)` function for `node:http`, Express 5 and Connect.
 * Requests under `basePath` go to `Auth()`; others go to `next` (or get a 404 without one).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Auth } from "../index.js"
import type { AuthConfig } from "../kernel/types/config.js"
import { RequestConversionError, sendWebResponse, toIncomingRequest, toWebRequest, type NodeRequest } from "./convert.js"
import type { IncomingRequest } from "../kernel/http/incoming.js"
import { withEnvDefaults } from "./env.js"
import { guardApp } from "./guard.js"
import { isAuthPath, normalizeBasePath } from "../kernel/config/base-path.js"
import { REGISTRY_KEY } from "../kernel/registry/carried.js"
import { configured } from "../registry.js"
import { resolveConfig } from "../kernel/config/resolve.js"
import { answerParts, answerResponse } from "../kernel/http/answer.js"
import { sendParts } from "./send-parts.js"

export interface NodeHandlerOptions {
  /** Bytes of request body read at most. Default: core's limit (64 KiB). */
  maxBodyBytes?: number
}

/** A Node request handler; `next` is Connect/Express's, called for requests that are not authlib's. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void

function refuse(res: ServerResponse, err: RequestConversionError): void {
  const body = JSON.stringify({ error: "InvalidRequest", code: err.code, message: err.message })
  res.writeHead(err.status, { "content-type": "application/json", "cache-control": "private, no-cache, no-store", ...(err.status === 413 ? { connection: "close" } : {}) })
  res.end(body)
}

/**
 * Mounts authlib on a Node server. The configuration is completed from `process.env` (`AUTH_SECRET`,
 * `WEBAUTH_URL`, provider ids and secrets, as `setEnvDefaults` reads them) on a copy; the app's
 * object is left as it is. The request's origin is the config's `url` when set (so a
 * forged `Host` changes nothing), else `Host` with the socket's scheme (core then applies
 * `X-Forwarded-*` as `trustHost` allows). The socket's remote address is handed to core as the
 * client address for per-client rate limits.
 */
export function toNodeHandler(appConfig: AuthConfig, options: NodeHandlerOptions = {}): NodeHandler {
  const config = withEnvDefaults(appConfig)
  const basePath = normalizeBasePath(config.basePath)
  // At the root, only the actions of the registry the config runs with are authlib's.
  const actions = configured(config)[REGISTRY_KEY].actions
  const origin = config.url ? new URL(String(config.url)).origin : undefined
  return (req, res, appNext) => {
    // The app's callback runs guarded: an error it throws (or a promise it rejects, such as
    // `getSession` on a broken configuration) answers 500 and is logged; it never reaches the process.
    const next = appNext && guardApp(appNext, res, config)
    const path = ((req as NodeRequest).originalUrl ?? req.url ?? "/").split("?")[0]!
    if (!isAuthPath(path, basePath, actions)) {
      if (next) return next()
      res.writeHead(404, { "content-type": "text/plain" })
      res.end("Not found")
      return
    }
    void (async () => {
      const resolved = resolveConfig(configured(config))
      const convert = { ...(origin ? { origin } : {}), ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}) }
      let request: Request | IncomingRequest
      try {
        // `raw` answers through `Auth()`, which takes a `Request`; otherwise core makes one only if a route asks for it.
        request = resolved.raw ? await toWebRequest(req as NodeRequest, convert) : await toIncomingRequest(req as NodeRequest, convert)
      } catch (err) {
        if (err instanceof RequestConversionError) return refuse(res, err)
        throw err
      }
      // The socket's peer: per-client rate limits key on it (forwarding headers only count under
      // `rateLimit.trustedProxies`, judged by core).
      const clientAddress = req.socket?.remoteAddress
      if (request instanceof Request) return sendWebResponse(res, await Auth(request, config, clientAddress ? { clientAddress } : {}))
      // `Auth()`'s answer, written without a Web `Response` when its headers allow (send-parts.ts).
      const parts = await answerParts(request, resolved, clientAddress)
      if (!sendParts(res, parts)) await sendWebResponse(res, answerResponse(parts, resolved.logger))
    })().catch((err: unknown) => {
      if (next) return next(err)
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: "Configuration" }))
    })
  }
}
