/**
 * Runs Requests through `Auth` in-process, like Hono's `app.request`: `client.request(path, init)`
 * with a cookie jar (the e2e kit's), so tests read as HTTP conversations.
 */
import setCookieParser from "set-cookie-parser"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { Auth } from "../../src/index.js"
import type { AuthConfig, CredentialsConfig, LoggerInstance, User } from "../../src/index.js"
import { CredentialsSignin, MemoryRateLimitStore } from "../../src/index.js"

export const SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz"
export const ORIGIN = "http://localhost:3000"

export interface ParsedCookie {
  name: string
  value: string
  path?: string
  expires?: Date
  maxAge?: number
  domain?: string
  secure?: boolean
  httpOnly?: boolean
  sameSite?: string
}

/** The `Set-Cookie` headers of a response, parsed. */
export function setCookies(res: Response): ParsedCookie[] {
  return setCookieParser.parse(res.headers.getSetCookie(), { decodeValues: false }) as ParsedCookie[]
}

export class InvalidPassword extends CredentialsSignin {
  override code = "invalid_password"
}

export const alice: User = { id: "user-1", name: "Alice", email: "alice@example.com", image: "https://img.example/a.png" }

/** A credentials provider: alice / wonderland signs in; "wrong" throws InvalidPassword; "boom" throws. */
export function credentials(over: Partial<CredentialsConfig> = {}): CredentialsConfig {
  return {
    id: "credentials",
    name: "Password",
    type: "credentials",
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    async authorize(c) {
      if (c.password === "boom") throw new Error("database is down")
      if (c.password === "wrong") throw new InvalidPassword()
      if (c.username === "alice" && c.password === "wonderland") return { ...alice }
      return null
    },
    ...over,
  }
}

/** A logger that records every call. */
export function recordingLogger() {
  const entries: Array<{ level: keyof LoggerInstance; code: string; message: unknown[] }> = []
  const logger: LoggerInstance = {
    error: (code, ...message) => void entries.push({ level: "error", code, message }),
    warn: (code, ...message) => void entries.push({ level: "warn", code, message }),
    debug: (code, ...message) => void entries.push({ level: "debug", code, message }),
  }
  return { logger, entries }
}

/** A test's config: its own rate-limit counters (the default store is one per process). */
export function config(over: Partial<AuthConfig> = {}): AuthConfig {
  return { providers: [credentials()], secret: SECRET, trustHost: true, logger: recordingLogger().logger, rateLimit: { store: new MemoryRateLimitStore() }, ...over }
}

export interface RequestInitPlus extends RequestInit {
  form?: Record<string, string>
  json?: unknown
  /** Send no cookies from the jar. */
  noJar?: boolean
}

export class Client {
  /** The browser's cookies for `origin`. */
  readonly jar: CookieJar
  /** The peer address handed to `Auth` (none by default, as a caller that knows none). */
  clientAddress: string | undefined
  constructor(readonly config: AuthConfig, readonly origin = ORIGIN, clientAddress?: string) {
    this.jar = new CookieJar(origin)
    this.clientAddress = clientAddress
  }

  async request(path: string, init: RequestInitPlus = {}): Promise<Response> {
    const { form, json, noJar, ...rest } = init
    const headers = new Headers(rest.headers)
    const method = rest.method ?? (form || json !== undefined ? "POST" : "GET")
    if (method === "POST" && !headers.has("origin") && !headers.has("x-no-origin")) headers.set("origin", this.origin)
    headers.delete("x-no-origin")
    const url = new URL(path, this.origin)
    if (!noJar && !headers.has("cookie")) this.jar.apply(headers, url)
    let body = rest.body
    if (form) (headers.set("content-type", "application/x-www-form-urlencoded"), (body = new URLSearchParams(form).toString()))
    if (json !== undefined) (headers.set("content-type", "application/json"), (body = JSON.stringify(json)))
    const res = await Auth(new Request(url, { ...rest, method, headers, ...(body !== undefined ? { body } : {}) }), this.config, this.clientAddress ? { clientAddress: this.clientAddress } : {})
    return this.jar.keep(res, url)
  }

  async csrfToken(): Promise<string> {
    const res = await this.request("/auth/csrf")
    return ((await res.json()) as { csrfToken: string }).csrfToken
  }

  /** A browser-like form POST carrying a fresh CSRF token. */
  async post(path: string, form: Record<string, string> = {}, init: RequestInitPlus = {}): Promise<Response> {
    const csrfToken = await this.csrfToken()
    return this.request(path, { ...init, method: "POST", form: { csrfToken, ...form } })
  }

  async signIn(username = "alice", password = "wonderland", extra: Record<string, string> = {}): Promise<Response> {
    return this.post("/auth/callback/credentials", { username, password, ...extra })
  }

  async session(): Promise<unknown> {
    return (await this.request("/auth/session")).json()
  }
}
