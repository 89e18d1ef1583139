/// <reference types="node" />
/**
 * Core's server functions for Node, by name: one adapter, `forNode`, for every function of the
 * typed map (`serverFunctions`; the exports in `index.ts`), and `appForNode` for the two that take
 * no request. A twin takes the Node request (`IncomingMessage`) where the root function takes a
 * `Request`, and the configuration completed from `process.env` exactly as `toNodeHandler` and
 * `getSession` complete it (`withEnvDefaults`: one copy per config object); every other argument
 * and the result are the root function's own. A twin adds nothing else: no check, no default, no
 * error of its own but a request it cannot read.
 */
import type { IncomingMessage } from "node:http"
import type { TLSSocket } from "node:tls"
import { InvalidRequest } from "../kernel/errors/errors.js"
import type { AnyServerFunction } from "../kernel/run/server-function.js"
import { serverFunctions, type ServerFunctions } from "../server-functions.js"
import type { AuthConfig } from "../kernel/types/config.js"
import { headersOf, type NodeRequest } from "./convert.js"
import { withEnvDefaults } from "./env.js"

/** A root server function for the app, without a request: `(config, ...rest)`. */
export type AppServerFunction = (config: AuthConfig, ...rest: never[]) => Promise<unknown>

/** The Node twin of a root server function: the Node request in place of the `Request`. */
export type NodeServerFunction<F> = F extends (request: Request, config: AuthConfig, ...rest: infer A) => infer R
  ? (req: IncomingMessage, config: AuthConfig, ...rest: A) => R
  : F extends (config: AuthConfig, ...rest: infer A) => infer R
    ? (config: AuthConfig, ...rest: A) => R
    : never

/**
 * The `Request` a server function reads: the Node request's URL and headers, never its body (the
 * root functions take their input as an argument, and the app may read the body itself). The
 * origin is the config's `url` when set, else `Host` with the socket's scheme, as `toNodeHandler`
 * builds it.
 */
function requestOf(req: NodeRequest, config: AuthConfig): Request {
  const headers = headersOf(req)
  const scheme = (req.socket as TLSSocket | undefined)?.encrypted ? "https" : "http"
  try {
    const origin = config.url ? new URL(String(config.url)).origin : `${scheme}://${req.headers.host ?? "localhost"}`
    return new Request(new URL(req.originalUrl ?? req.url ?? "/", origin), { headers })
  } catch {
    // A Host (or path) no URL can be made of is the client's doing: refused, never a 500.
    throw new InvalidRequest("The request's Host header or path is not a valid URL", { code: "REQUEST_INVALID" })
  }
}

/** The Node twin of core's server function `name` (a key of `serverFunctions`). */
export function forNode<K extends keyof ServerFunctions>(name: K): NodeServerFunction<ServerFunctions[K]> {
  const fn: AnyServerFunction = serverFunctions[name]
  const twin = async (req: NodeRequest, config: AuthConfig, ...rest: never[]) => {
    const completed = withEnvDefaults(config)
    return fn(requestOf(req, completed), completed, ...rest)
  }
  return Object.defineProperty(twin, "name", { value: name }) as NodeServerFunction<ServerFunctions[K]>
}

/** The Node twin of a root function for the app, which takes the config first and no request. */
export function appForNode<F extends AppServerFunction>(fn: F): NodeServerFunction<F> {
  const twin = async (config: AuthConfig, ...rest: never[]) => fn(withEnvDefaults(config), ...rest)
  return Object.defineProperty(twin, "name", { value: fn.name }) as NodeServerFunction<F>
}
