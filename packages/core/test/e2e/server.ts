/**
 * A plain node:http server on 127.0.0.1 for the browser tests: `{basePath}/*` goes to `Auth()`,
 * and `/` is a small app page (the signed-in user, and a form that adds a passkey with the same
 * script the sign-in page uses). Reached as `http://localhost:<port>` (an IP is not a valid RP ID).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Auth, type AuthConfig } from "../../src/index.js"
import { PASSKEY_SCRIPT } from "../../src/kernel/pages/passkey-script.js"

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value)
  const body = chunks.length ? Buffer.concat(chunks) : undefined
  return new Request(new URL(req.url ?? "/", origin), { method: req.method, headers, ...(body && req.method !== "GET" ? { body } : {}) })
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers["set-cookie"] = cookies
  res.writeHead(response.status, headers)
  res.end(Buffer.from(await response.arrayBuffer()))
}

function appPage(session: { user?: { name?: string; email?: string } } | null, csrfToken: string, origin: string): string {
  const who = session?.user ? `Signed in as ${session.user.email ?? session.user.name}` : "Not signed in"
  return `<!DOCTYPE html><html><head><title>App</title></head><body>
<p id="who">${who}</p>
<form method="POST" action="${origin}/auth/callback/passkey" data-passkey-options="${origin}/auth/webauthn-options/passkey">
<input type="hidden" name="csrfToken" value="${csrfToken}"><input type="hidden" name="callbackUrl" value="${origin}/?added=1">
<input type="hidden" name="action" value=""><input type="hidden" name="data" value="">
<button type="submit" value="register">Add a passkey</button>
<p data-passkey-error hidden></p>
</form>
<script>${PASSKEY_SCRIPT}</script>
</body></html>`
}

export interface TestServer {
  origin: string
  close(): Promise<void>
}

/** Starts the server for `config(origin)`; it closes itself after `lifetimeMs` at the latest. */
export async function startServer(config: (origin: string) => AuthConfig, lifetimeMs = 120_000): Promise<TestServer> {
  let cfg: AuthConfig | undefined
  let origin = ""
  const server = createServer((req, res) => {
    void (async () => {
      const request = await toRequest(req, origin)
      if (new URL(request.url).pathname.startsWith("/auth/")) return send(res, await Auth(request, cfg!))
      const cookie = request.headers.get("cookie") ?? ""
      const session = (await (await Auth(new Request(`${origin}/auth/session`, { headers: { cookie } }), cfg!)).json()) as never
      const csrf = await Auth(new Request(`${origin}/auth/csrf`, { headers: { cookie } }), cfg!)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      const setCookie = csrf.headers.getSetCookie()
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...(setCookie.length ? { "set-cookie": setCookie } : {}) })
      res.end(appPage(session, csrfToken, origin))
    })().catch((err) => {
      res.writeHead(500)
      res.end(String(err))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://localhost:${(server.address() as AddressInfo).port}`
  cfg = config(origin)
  const timer = setTimeout(() => server.close(), lifetimeMs)
  timer.unref()
  return {
    origin,
    close: () => {
      clearTimeout(timer)
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
