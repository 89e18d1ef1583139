/**
 * A NextAuth.js v4 app, for the v4 move tests: `next-auth@4.24`'s own Pages Router API handler
 * (`NextAuth(options)` as `pages/api/auth/[...nextauth].ts` exports it) served by node:http on
 * 127.0.0.1, with what Next.js adds to an API route's request and response (`req.query` with the
 * `nextauth` catch-all segments, the parsed form `req.body`, `req.cookies`; the response's `status`,
 * `send` and `json` methods). Next.js itself is not needed for that: v4 loads `next/headers` only in
 * the App Router path.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import nextAuth, { type AuthOptions } from "next-auth"

/** What Next.js parses for an API route before the handler runs. */
type ApiRequest = IncomingMessage & { query: Record<string, string | string[]>; body: Record<string, string> | undefined; cookies: Record<string, string> }
type ApiResponse = ServerResponse & { status(code: number): ApiResponse; send(body: unknown): void; json(body: unknown): void }

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=")
    if (at > 0) out[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim())
  }
  return out
}

async function readForm(req: IncomingMessage): Promise<Record<string, string> | undefined> {
  if (req.method !== "POST") return undefined
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")))
}

/** Dresses node:http's request and response as Next.js's API route ones. */
async function asApiRoute(req: IncomingMessage, res: ServerResponse): Promise<[ApiRequest, ApiResponse]> {
  const url = new URL(req.url ?? "/", "http://localhost")
  const query: Record<string, string | string[]> = Object.fromEntries(url.searchParams)
  query.nextauth = url.pathname.replace(/^\/api\/auth\/?/, "").split("/").filter(Boolean)
  const apiReq = Object.assign(req, { query, body: await readForm(req), cookies: parseCookies(req.headers.cookie) })
  const apiRes = res as ApiResponse
  apiRes.status = (code) => ((res.statusCode = code), apiRes)
  apiRes.send = (body) => void res.end(typeof body === "string" || body === undefined ? body : JSON.stringify(body))
  apiRes.json = (body) => (res.setHeader("content-type", "application/json"), void res.end(JSON.stringify(body)))
  return [apiReq, apiRes]
}

/** A running v4 app: its origin (`http://127.0.0.1:<port>`) and `close`. Set `NEXTAUTH_URL` to `${origin}/api/auth` before use. */
export async function startNextAuthV4App(options: AuthOptions): Promise<{ origin: string; close(): Promise<void> }> {
  // next-auth 4 is CommonJS: under Node's ESM interop its `NextAuth` is the module's `default`.
  const NextAuth = ((nextAuth as unknown as { default?: unknown }).default ?? nextAuth) as (options: AuthOptions) => (req: ApiRequest, res: ApiResponse) => Promise<void>
  const handler = NextAuth(options)
  const server = createServer((req, res) => {
    asApiRoute(req, res)
      .then(([apiReq, apiRes]) => handler(apiReq, apiRes))
      .catch((err: unknown) => {
        res.statusCode = 500
        res.end(String(err))
      })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
