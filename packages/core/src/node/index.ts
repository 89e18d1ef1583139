/// <reference types="node" />
/**
 * `@authlib/core/node`: authlib on `node:http`, Express 5 and Connect-style servers. The only
 * part of core that uses Node APIs; the handler itself stays the Web-standard `Auth()`.
 *
 * ```ts
 * import { createServer } from "node:http"
 * import { toNodeHandler, getSession } from "@authlib/core/node"
 * const auth = toNodeHandler(config)
 * createServer((req, res) => auth(req, res, () => app(req, res))).listen(3000)
 * // Express 5: app.use("/auth", toNodeHandler(config)) (before any body parser, or after: both work)
 * ```
 * @module
 */
export { toNodeHandler, type NodeHandler, type NodeHandlerOptions } from "./handler.js"
export { getSession } from "./session.js"
export { toWebRequest, sendWebResponse } from "./convert.js"
