/**
 * Test helpers: an in-process client that runs Requests through core's `Auth` with a cookie jar,
 * a small HTTP server and an SMTP server, both on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { simpleParser, type ParsedMail } from "mailparser"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { SMTPServer } from "smtp-server"
import { Auth, type AuthConfig } from "@authlib/core"

export const ORIGIN = "http://localhost:3000"
export const SECRET = "providers-test-secret-0123456789-abcdefghijklmnop"

/** Runs requests through `Auth` like a browser: same-origin POSTs, cookies kept between calls. */
export class Client {
  readonly jar: CookieJar
  constructor(
    readonly config: AuthConfig,
    readonly origin = ORIGIN,
  ) {
    this.jar = new CookieJar(origin)
  }

  async request(path: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers = new Headers()
    const method = init.method ?? (init.form ? "POST" : "GET")
    if (method === "POST") headers.set("origin", this.origin)
    const url = new URL(path, this.origin)
    this.jar.apply(headers, url)
    let body: string | undefined
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      body = new URLSearchParams(init.form).toString()
    }
    return this.jar.keep(await Auth(new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) }), this.config), url)
  }

  /** A form POST carrying a fresh CSRF token, as the built-in pages send it. */
  async post(path: string, form: Record<string, string> = {}): Promise<Response> {
    const { csrfToken } = (await (await this.request("/auth/csrf")).json()) as { csrfToken: string }
    return this.request(path, { form: { csrfToken, ...form } })
  }
}

export type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void

/** Starts a server on 127.0.0.1 with a free port; `close()` stops it. */
export async function startServer(handler: Handler): Promise<{ url: string; close: () => Promise<void>; server: Server }> {
  const server = createServer((req, res) => {
    let body = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (body += chunk))
    req.on("end", () => handler(req, body, res))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, server, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** Writes a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
}

/** A received message: its envelope recipients and the parsed mail. */
export interface ReceivedMail {
  to: string[]
  mail: ParsedMail
}

/**
 * smtp-server on 127.0.0.1 with STARTTLS hidden (its built-in certificate is expired) and no
 * authentication. Recipients starting with `nobody@` are refused at RCPT (550); with
 * `rejectData` set, every message is refused after DATA (554).
 */
export async function startSmtp() {
  const received: ReceivedMail[] = []
  const state = { rejectData: false }
  const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode })
  const smtp = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(address.address.startsWith("nobody@") ? smtpError("No such user here", 550) : undefined)
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        if (state.rejectData) return callback(smtpError("Message rejected as spam", 554))
        simpleParser(Buffer.concat(chunks)).then((mail) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail })
          callback()
        }, callback)
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()))
  const port = (smtp.server.address() as AddressInfo).port
  return { url: `smtp://127.0.0.1:${port}`, port, received, state, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) }
}
