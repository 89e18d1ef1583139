/// <reference types="node" />
/**
 * Writes core's answer (`ResponseParts`) to a `ServerResponse` without making a Web `Response`
 * first: the `Response`, its body stream and the stream's read cost a node server more than a tenth
 * of a cached session read. The bytes on the wire are those `sendWebResponse` writes for the
 * `Response` of the same parts: the same status, the same headers in the same order (names sorted,
 * as `Headers` lists them, `Set-Cookie` last), the same body (`Content-Length` set by node either way).
 */
import type { ServerResponse } from "node:http"

/**
 * A header value both `Headers` and node keep exactly as it is: printable ASCII without leading or
 * trailing space (`Headers` trims those, and refuses or re-encodes what node would write otherwise).
 */
const PLAIN_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/

/**
 * Writes `parts` to `res` and answers true, or answers false and writes nothing when the parts
 * need a `Response` to be sent as `sendWebResponse` sends them (headers given as pairs, a value
 * `Headers` would change or refuse, a status a `Response` cannot have).
 */
export function sendParts(res: ServerResponse, parts: { status: number; headers: Record<string, string> | Array<[string, string]>; body: string | null; moreCookies?: string[] }): boolean {
  const { headers, status } = parts
  // A `Response` refuses a status outside 200-599, and a body with 204, 205 or 304.
  if (Array.isArray(headers) || status < 200 || status > 599 || (parts.body !== null && (status === 204 || status === 205 || status === 304))) return false
  const names = Object.keys(headers)
  for (const name of names) if (!PLAIN_VALUE.test(headers[name]!)) return false
  const more = parts.moreCookies
  if (more !== undefined) for (const cookie of more) if (!PLAIN_VALUE.test(cookie)) return false
  // The record's names are lower-case and distinct (core's `headersOf`); `Headers` lists them sorted.
  names.sort()
  res.statusCode = status
  for (const name of names) if (name !== "set-cookie") res.setHeader(name, headers[name]!)
  const cookie = headers["set-cookie"]
  if (cookie !== undefined) res.setHeader("set-cookie", more === undefined ? [cookie] : [cookie, ...more])
  res.end(parts.body ?? undefined)
  return true
}
