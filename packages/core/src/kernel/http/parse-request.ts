/**
 * Request (or a binding's `IncomingRequest`) -> AuthRequest. Never throws: malformed input comes back
 * as an error value the dispatcher answers with a 4xx JSON body. Limits: headers 16 KiB in total
 * (Node's own default), body 64 KiB.
 */
import { InvalidRequest, MethodNotAllowed, UnknownAction } from "../errors/errors.js"
import { parseCookieHeader } from "../cookies/serialize.js"
import type { AuthError, ErrorCode } from "../errors/errors.js"
import type { AuthAction, AuthRequest } from "../types/http.js"
import type { Registry } from "../types/registry.js"
import { MAX_BODY_BYTES, MAX_HEADER_BYTES } from "./limits.js"
import { IncomingRequest, type RequestSource } from "./incoming.js"


const bad = (message: string, code: ErrorCode<"InvalidRequest">, status = 400) => new InvalidRequest(message, { code, status })

function decodeComponent(value: string): string | undefined {
  try {
    return decodeURIComponent(value)
  } catch {
    return undefined
  }
}

const unknownAction = (pathname: string) => new UnknownAction(`Unknown action: ${pathname.slice(0, 200)}`, { code: "ACTION_UNKNOWN" })

/** `basePath/action[/providerId]` (or `action/step/id` for a nested route) -> parts, or an error for anything else (an action no route of `registry` declares included). */
function parsePath(pathname: string, basePath: string, registry: Registry): { action: AuthAction; providerId: string | undefined } | AuthError {
  if (!pathname.startsWith(basePath) || pathname[basePath.length] !== "/") return unknownAction(pathname)
  // One trailing slash is tolerated (`/auth/session/`), as routers commonly do.
  const rest = pathname.endsWith("/") ? pathname.slice(basePath.length + 1, -1) : pathname.slice(basePath.length + 1)
  const parts = rest.split("/")
  const decoded = rest.includes("%") ? parts.map(decodeComponent) : parts
  if (decoded.some((p) => p === undefined)) return bad("The URL path is not valid percent-encoding", "PATH_ENCODING_INVALID")
  const action = decoded[0]
  const route = action ? registry.route(action) : undefined
  // A nested route takes `{action}/{step}/{id}` as the provider id `step/id` (no segment may hold a `/` of its own).
  const nested = route?.nested === true && decoded.length === 3 && decoded.every((p) => !p!.includes("/") && p !== "")
  const providerId = nested ? `${decoded[1]}/${decoded[2]}` : decoded[1]
  if (!action || !route || (decoded.length > 2 && !nested)) return unknownAction(pathname)
  if (providerId !== undefined && (!route.withProvider || providerId === "")) return unknownAction(pathname)
  return { action, providerId }
}

function headerBytes(headers: Headers): number {
  let total = 0
  headers.forEach((value, key) => (total += key.length + value.length + 4))
  return total
}

/**
 * The first value of each key, as own data properties (a key named `__proto__` stays a plain key
 * instead of replacing the object's prototype). Built in place: a Map plus `Object.fromEntries`
 * cost twice as much on the sign-in path.
 */
function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of params) {
    if (Object.hasOwn(out, k)) continue
    if (k === "__proto__") Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true })
    else out[k] = v
  }
  return out
}

/** A `%` that does not start an ASCII escape (`%00`-`%7F`, which always decode): only then decode. */
const NEEDS_DECODE_CHECK = /%(?![0-7][0-9A-Fa-f])/

/**
 * Whether every percent-escape of a query or form decodes (URLSearchParams would silently keep a
 * bad one or turn it into U+FFFD). One decode of the whole text is equivalent to decoding each
 * `&`/`=`-separated part: a valid escape sequence never spans a separator, and a bad one fails
 * either way.
 */
function percentEncodingValid(text: string): boolean {
  return !NEEDS_DECODE_CHECK.test(text) || decodeComponent(text) !== undefined
}

function parseQuery(url: URL): Record<string, string> | AuthError {
  // `url.searchParams` builds a URLSearchParams on first access: none is needed for no query.
  if (url.search === "") return {}
  if (!percentEncodingValid(url.search))
    return bad("The query string is not valid percent-encoding", "QUERY_ENCODING_INVALID")
  return firstValues(url.searchParams)
}

/** Fatal UTF-8 decoder. Without `stream`, `decode` keeps no state between calls, so one serves all. */
const utf8 = new TextDecoder("utf-8", { fatal: true })

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size)
  let offset = 0
  for (const c of chunks) (all.set(c, offset), (offset += c.byteLength))
  return all
}

const tooLarge = (limit: number) => bad(`The body is larger than ${limit} bytes`, "BODY_TOO_LARGE", 413)

/** UTF-8 text of `bytes`, or the error for bytes that are not. */
function utf8Text(bytes: Uint8Array): string | AuthError {
  try {
    return utf8.decode(bytes)
  } catch {
    return bad("The body is not valid UTF-8", "BODY_ENCODING_INVALID")
  }
}

/** The body's text, at most `limit` bytes; a binding's request has read its body already. */
function readText(source: RequestSource, limit: number): string | AuthError | Promise<string | AuthError> {
  const declared = Number(source.headers.get("content-length") ?? "0")
  if (declared > limit) return tooLarge(limit)
  if (!(source instanceof IncomingRequest)) return readStream(source, limit)
  if (source.body === undefined) return ""
  return source.body.byteLength > limit ? tooLarge(limit) : utf8Text(source.body)
}

async function readStream(request: Request, limit: number): Promise<string | AuthError> {
  if (!request.body) return ""
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return tooLarge(limit)
    }
    chunks.push(value)
  }
  return utf8Text(chunks.length === 1 ? chunks[0]! : concat(chunks, size))
}

function parseForm(text: string): Record<string, unknown> | AuthError {
  if (!percentEncodingValid(text))
    return bad("The form body is not valid percent-encoding", "FORM_BODY_INVALID")
  return firstValues(new URLSearchParams(text))
}

/** Deeper JSON than any sign-in form needs; the limit keeps recursive consumers from overflowing. */
const MAX_JSON_DEPTH = 32

/** Whether brackets outside strings nest deeper than `max`: one linear scan, no recursion. */
function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

function parseJson(text: string): Record<string, unknown> | AuthError {
  if (text.trim() === "") return {}
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return bad(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, "JSON_BODY_TOO_DEEP")
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>
    return bad("The JSON body must be an object", "JSON_BODY_NOT_OBJECT")
  } catch {
    return bad("The body is not valid JSON", "JSON_BODY_INVALID")
  }
}

/** The body of a POST, by content type. The text is read first, so this step is synchronous. */
function parseBody(headers: Headers, text: string): { body: Record<string, unknown>; rawBody: string } | AuthError {
  const type = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase()
  let body: Record<string, unknown> | AuthError
  if (type === "application/x-www-form-urlencoded") body = parseForm(text)
  else if (type === "application/json") body = parseJson(text)
  else if (text === "") body = {}
  else return bad(`Unsupported content type "${type.slice(0, 100)}": send application/x-www-form-urlencoded or application/json`, "CONTENT_TYPE_UNSUPPORTED", 415)
  return body instanceof Error ? body : { body: body as Record<string, unknown>, rawBody: text }
}

/** The parts of a request the route sees, other than its method and body. */
type Parts = Pick<AuthRequest, "action" | "providerId" | "url" | "query" | "cookies" | "headers" | "clientAddress">

/**
 * The `AuthRequest` of a binding's `IncomingRequest`, which makes its `Request` only when `request`
 * is read (incoming.ts). A class, so `request` is a getter of the prototype: an object literal
 * with a getter of its own takes V8's slow path, about 0.5 us per request on Node 20 (against
 * 7 ns for a plain one).
 */
class IncomingAuthRequest implements AuthRequest {
  readonly #source: IncomingRequest
  readonly action: AuthAction
  readonly providerId: string | undefined
  readonly url: URL
  readonly query: Readonly<Record<string, string>>
  readonly cookies: Readonly<Record<string, string>>
  readonly headers: Headers
  readonly clientAddress: string | undefined

  constructor(
    source: IncomingRequest,
    readonly method: "GET" | "POST",
    parts: Parts,
    readonly body: Readonly<Record<string, unknown>>,
    readonly rawBody: string | undefined,
  ) {
    this.#source = source
    this.action = parts.action
    this.providerId = parts.providerId
    this.url = parts.url
    this.query = parts.query
    this.cookies = parts.cookies
    this.headers = parts.headers
    this.clientAddress = parts.clientAddress
  }

  get request(): Request {
    return this.#source.request
  }
}

/** The `AuthRequest` of `source`: a `Request` is its own `request`. */
function authRequest(source: RequestSource, method: "GET" | "POST", parts: Parts, body: Readonly<Record<string, unknown>>, rawBody: string | undefined): AuthRequest {
  if (source instanceof IncomingRequest) return new IncomingAuthRequest(source, method, parts, body, rawBody)
  const { action, providerId, url, query, cookies, headers, clientAddress } = parts
  return { request: source, method, action, providerId, url, query, body, rawBody, cookies, headers, clientAddress }
}

/**
 * Parses `source` against the routes of `registry` (the actions it declares, the methods each
 * accepts). A GET (no body to read), or a POST whose body a binding has read, is answered
 * synchronously: the caller's `await` is then its only hop.
 */
export function parseRequest(
  source: RequestSource,
  basePath: string,
  registry: Registry,
  clientAddress?: string,
): AuthRequest | AuthError | Promise<AuthRequest | AuthError> {
  try {
    const url = source instanceof IncomingRequest ? source.url : new URL(source.url)
    const path = parsePath(url.pathname, basePath, registry)
    if (path instanceof Error) return path
    const method = source.method.toUpperCase()
    const methods: readonly string[] = registry.methods(path.action)
    if (methods.length === 0) return new UnknownAction(`Action ${path.action} is not available`, { code: "ACTION_UNAVAILABLE" })
    if (!methods.includes(method)) return new MethodNotAllowed(`${method} is not allowed on ${path.action}`, { code: "METHOD_NOT_ALLOWED", cause: { allow: methods.join(", ") } })
    const headers = source.headers
    // A binding that counted them as it copied them spares a walk of the `Headers` (undici sorts them to iterate).
    const size = (source instanceof IncomingRequest ? source.headerBytes : undefined) ?? headerBytes(headers)
    if (size > MAX_HEADER_BYTES) return bad("The request headers are too large", "HEADERS_TOO_LARGE", 431)
    const cookies = parseCookieHeader(headers.get("cookie"))
    const query = parseQuery(url)
    if (query instanceof Error) return query
    const parts: Parts = { action: path.action, providerId: path.providerId, url, query, cookies, headers, clientAddress }
    if (method !== "POST") return authRequest(source, "GET", parts, {}, undefined)
    // A route may take a larger body than the kernel's limit (a SAML Response: its own limit is checked by the route).
    const limit = registry.route(path.action)?.POST?.maxBodyBytes ?? MAX_BODY_BYTES
    const text = readText(source, limit)
    return typeof text === "string" ? withText(source, parts, text) : text instanceof Error ? text : withBody(source, parts, text)
  } catch {
    return bad("The request could not be read", "REQUEST_UNREADABLE")
  }
}

/** A POST whose body's text has been read: parsed, then the request the route sees. */
function withText(source: RequestSource, parts: Parts, text: string): AuthRequest | AuthError {
  const parsed = parseBody(parts.headers, text)
  return parsed instanceof Error ? parsed : authRequest(source, "POST", parts, parsed.body, parsed.rawBody)
}

/** A POST whose body is still being read (a `Request`'s stream). */
async function withBody(source: RequestSource, parts: Parts, reading: Promise<string | AuthError>): Promise<AuthRequest | AuthError> {
  try {
    const text = await reading
    return typeof text === "string" ? withText(source, parts, text) : text
  } catch {
    return bad("The request could not be read", "REQUEST_UNREADABLE")
  }
}

/**
 * The request of a server function (`listPasskeys(request, config)`, ...): the app's own request,
 * at any path, read for its cookies and headers only (its body is not read, no route applies).
 */
export function serverCallRequest(request: Request, action: AuthAction): AuthRequest {
  const url = new URL(request.url)
  const cookies = parseCookieHeader(request.headers.get("cookie"))
  return { request, method: "GET", action, providerId: undefined, url, query: {}, body: {}, rawBody: undefined, cookies, headers: request.headers, clientAddress: undefined }
}
