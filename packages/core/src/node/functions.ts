/// <reference types="node" />
/**
 * The root entry's server functions for Node: one adapter, `forNode`, applied to each of them
 * (the table in `index.ts`). A twin takes the Node request (`IncomingMessage`) where the root
 * function takes a `Request`, and the configuration completed from `process.env` exactly as
 * `toNodeHandler` and `getSession` complete it (`withEnvDefaults`: one copy per config object);
 * every other argument and the result are the root function's own. A twin adds nothing else: no
 * check, no default, no error of its own but a request it cannot read.
 */
import type { IncomingMessage } from "node:http"
import type { TLSSocket } from "node:tls"
import { InvalidRequest } from "../kernel/errors/errors.js"
import type { AuthConfig } from "../kernel/types/config.js"
import type { NodeRequest } from "./convert.js"
import { withEnvDefaults } from "./env.js"

/** A root server function that acts for the user of a request: `(request, config, ...rest)`. */
export type RequestServerFunction = (request: Request, config: AuthConfig, ...rest: never[]) => Promise<unknown>
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
  const headers = new Headers()
  const raw = req.rawHeaders ?? []
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!
    // HTTP/2 pseudo-headers (":path") are not header names a Request accepts.
    if (!name.startsWith(":")) headers.append(name, raw[i + 1]!)
  }
  const scheme = (req.socket as TLSSocket | undefined)?.encrypted ? "https" : "http"
  try {
    const origin = config.url ? new URL(String(config.url)).origin : `${scheme}://${req.headers.host ?? "localhost"}`
    return new Request(new URL(req.originalUrl ?? req.url ?? "/", origin), { headers })
  } catch {
    // A Host (or path) no URL can be made of is the client's doing: refused, never a 500.
    throw new InvalidRequest("The request's Host header or path is not a valid URL", { code: "REQUEST_INVALID" })
  }
}

/**
 * The Node twin of a root server function. `kind` says which argument the root function takes
 * first: `"request"` (the user of a request) or `"app"` (the config, for the app).
 */
export function forNode<F extends RequestServerFunction>(fn: F, kind: "request"): NodeServerFunction<F>
export function forNode<F extends AppServerFunction>(fn: F, kind: "app"): NodeServerFunction<F>
export function forNode(fn: (...args: unknown[]) => Promise<unknown>, kind: "request" | "app"): (...args: unknown[]) => Promise<unknown> {
  const twin =
    kind === "request"
      ? async (req: unknown, config: unknown, ...rest: unknown[]) => {
          const completed = withEnvDefaults(config as AuthConfig)
          return fn(requestOf(req as NodeRequest, completed), completed, ...rest)
        }
      : async (config: unknown, ...rest: unknown[]) => fn(withEnvDefaults(config as AuthConfig), ...rest)
  Object.defineProperty(twin, "name", { value: fn.name })
  return twin
}
