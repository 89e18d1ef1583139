/**
 * A request as a server binding received it, before it is a Web `Request`: its URL, method and
 * headers, and its body already read. `@authlib/core/node` hands core one of these. Core parses it
 * as it parses a `Request` (parse-request.ts) and makes the `Request` only when something asks for
 * `AuthRequest.request` (`authorize`'s second argument, a relying-party hook): a session read over
 * node:http then makes none. On Node 20 a `Request` costs several times the rest of the parse (its
 * `AbortSignal`, and for a POST the stream its body is read back through).
 */
export class IncomingRequest {
  #request: Request | undefined

  constructor(
    /** The absolute URL (the configured origin, or `Host` with the socket's scheme, and the path). */
    readonly url: URL,
    /** As the server received it (node hands it in upper case). */
    readonly method: string,
    readonly headers: Headers,
    /** The body as read (undefined: none was read, as for a GET). */
    readonly body: Uint8Array | undefined,
    /**
     * The headers' size as received (each line's name, value and 4 more bytes), counted where the
     * binding copied them; undefined: core counts `headers` (parse-request.ts).
     */
    readonly headerBytes?: number,
  ) {}

  /**
   * The Web `Request` of it, made on first use: the URL, method and headers, without the body,
   * which core has read already (as the `Request` handed to `Auth()` has been read by then).
   */
  get request(): Request {
    return (this.#request ??= new Request(this.url, { method: this.method, headers: this.headers }))
  }
}

/** What core's request path takes in: a `Request` (`Auth()`), or a binding's `IncomingRequest`. */
export type RequestSource = Request | IncomingRequest
