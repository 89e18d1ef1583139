/// <reference types="node" />
/**
 * `IncomingMessage` to `Request` and `Response` to `ServerResponse`. The body is read with a byte
 * cap so a client cannot make the server buffer more than the cap; a body that a framework's
 * parser (Express `express.json()`, `express.urlencoded()`) already consumed is serialised back
 * from `req.body`.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { TLSSocket } from "node:tls"
import { MAX_BODY_BYTES } from "../kernel/http/limits.js"
import { IncomingRequest } from "../kernel/http/incoming.js"

/** A Node request as Express and Connect extend it. */
export type NodeRequest = IncomingMessage & { originalUrl?: string; body?: unknown }

/** Why a request could not become a `Request`: answered by the caller with this status. */
export class RequestConversionError extends Error {
  constructor(
    readonly status: number,
    readonly code: "BODY_TOO_LARGE" | "HOST_MISSING" | "REQUEST_UNREADABLE",
    message: string,
  ) {
    super(message)
  }
}

/** The request's headers as they came (`rawHeaders`: duplicates kept, in order). */
export function headersOf(req: Pick<IncomingMessage, "rawHeaders">): Headers {
  return copiedHeaders(req).headers
}

/** `headersOf`, and their size as core counts it (`IncomingRequest.headerBytes`), each line as received. */
function copiedHeaders(req: Pick<IncomingMessage, "rawHeaders">): { headers: Headers; bytes: number } {
  const headers = new Headers()
  const raw = req.rawHeaders ?? []
  let bytes = 0
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!
    const value = raw[i + 1]!
    // HTTP/2 pseudo-headers (":path") are not header names a Request accepts.
    if (name.startsWith(":")) continue
    headers.append(name, value)
    bytes += name.length + value.length + 4
  }
  return { headers, bytes }
}

/** Reads at most `limit` bytes; more is an error, and the rest of the stream is discarded. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) {
    req.resume()
    return Promise.reject(new RequestConversionError(413, "BODY_TOO_LARGE", `The body is larger than ${limit} bytes`))
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.off("data", onData)
        req.resume()
        reject(new RequestConversionError(413, "BODY_TOO_LARGE", `The body is larger than ${limit} bytes`))
        return
      }
      chunks.push(chunk)
    }
    req.on("data", onData)
    req.once("end", () => resolve(Buffer.concat(chunks)))
    req.once("error", () => reject(new RequestConversionError(400, "REQUEST_UNREADABLE", "The request body could not be read")))
  })
}

/** A body a framework parser already read, written back in the request's own content type. */
function parsedBody(req: NodeRequest): string | undefined {
  if (!req.readableEnded || req.body === undefined || req.body === null) return undefined
  if (typeof req.body === "string" || Buffer.isBuffer(req.body)) return req.body.toString()
  const type = req.headers["content-type"] ?? ""
  if (type.includes("application/json")) return JSON.stringify(req.body)
  const form = new URLSearchParams()
  for (const [key, value] of Object.entries(req.body as Record<string, unknown>)) {
    for (const one of Array.isArray(value) ? value : [value]) form.append(key, String(one))
  }
  return form.toString()
}

export interface ToWebRequestOptions {
  /** Origin of the app (the configured `url`); default: `Host` with the socket's scheme. */
  origin?: string
  /** Bytes of body read at most. Default: core's limit (64 KiB). */
  maxBodyBytes?: number
}

/** What a Node request holds for core: its URL, method, headers and body (read, capped). */
interface NodeRequestParts {
  url: URL
  method: string
  headers: Headers
  /** The headers' size, counted as they were copied. */
  headerBytes: number
  /** The body as read, or as a framework's parser left it; undefined for a GET or HEAD. */
  body: Uint8Array<ArrayBuffer> | string | undefined
}

async function partsOf(req: NodeRequest, options: ToWebRequestOptions): Promise<NodeRequestParts> {
  const host = req.headers.host
  if (!options.origin && !host) throw new RequestConversionError(400, "HOST_MISSING", "The request has no Host header")
  const scheme = (req.socket as TLSSocket).encrypted ? "https" : "http"
  const url = new URL(req.originalUrl ?? req.url ?? "/", options.origin ?? `${scheme}://${host}`)
  const method = req.method ?? "GET"
  const { headers, bytes: headerBytes } = copiedHeaders(req)
  if (method === "GET" || method === "HEAD") return { url, method, headers, headerBytes, body: undefined }
  const body = parsedBody(req) ?? new Uint8Array(await readBody(req, (options.maxBodyBytes ?? MAX_BODY_BYTES) + 1))
  return { url, method, headers, headerBytes, body }
}

/** The Web `Request` of a Node request (Express mounts included: `originalUrl` wins over `url`). */
export async function toWebRequest(req: NodeRequest, options: ToWebRequestOptions = {}): Promise<Request> {
  const { url, method, headers, body } = await partsOf(req, options)
  return new Request(url, body === undefined ? { method, headers } : { method, headers, body })
}

/**
 * The same request as `toWebRequest` reads it, for core's own request path: no `Request` is made
 * unless a route asks for one (kernel/http/incoming.ts).
 */
export async function toIncomingRequest(req: NodeRequest, options: ToWebRequestOptions = {}): Promise<IncomingRequest> {
  const { url, method, headers, headerBytes, body } = await partsOf(req, options)
  return new IncomingRequest(url, method, headers, typeof body === "string" ? Buffer.from(body) : body, headerBytes)
}

/** Writes `response` to `res`, every `Set-Cookie` as its own header line. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value)
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) res.setHeader("set-cookie", cookies)
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined)
}
