/**
 * The browser's calls to authlib's routes, with the names and results of `next-auth/react`:
 * `getSession`, `getCsrfToken`, `getProviders`, `signIn`, `signOut`. Every POST carries a CSRF token
 * from `{basePath}/csrf` (core checks it and the request's `Origin`), and asks for the redirect as
 * JSON (`X-Auth-Return-Redirect`), so `redirect: false` can answer it.
 */
import type { Session } from "@authlib/core"
import { announce } from "./broadcast.js"

/** Where authlib is mounted, as the `SessionProvider` (or the first call) set it. Default `/api/auth`. */
let basePath = "/api/auth"

/** Sets the mount point the helpers use (`SessionProvider`'s `basePath` does). */
export function setBasePath(path: string | undefined): void {
  if (path) basePath = path.replace(/\/+$/, "")
}

/** The mount point the helpers use now. */
export function currentBasePath(): string {
  return basePath
}

function url(action: string): string {
  return `${basePath}/${action}`
}

async function getJson<T>(action: string): Promise<T | null> {
  try {
    const res = await fetch(url(action), { credentials: "same-origin", headers: { accept: "application/json" } })
    if (!res.ok) return null
    return (await res.json()) as T
  } catch {
    return null
  }
}

/** The session, or `null` when signed out (or when the request failed). */
export async function getSession(): Promise<Session | null> {
  return getJson<Session | null>("session")
}

/** A CSRF token for a POST of your own to authlib's routes. */
export async function getCsrfToken(): Promise<string> {
  return (await getJson<{ csrfToken?: string }>("csrf"))?.csrfToken ?? ""
}

/** A provider as `{basePath}/providers` lists it. */
export interface ClientSafeProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/** The configured providers by id, or `null` when the request failed. */
export async function getProviders(): Promise<Record<string, ClientSafeProvider> | null> {
  return getJson<Record<string, ClientSafeProvider>>("providers")
}

async function post(action: string, fields: Record<string, string>, search?: string): Promise<{ status: number; url: string | undefined; body: Record<string, unknown> | null }> {
  const body = new URLSearchParams({ ...fields, csrfToken: await getCsrfToken() })
  const res = await fetch(`${url(action)}${search ? `?${search}` : ""}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1", accept: "application/json" },
    body,
  })
  const json = (await res.json().catch(() => null)) as Record<string, unknown> | null
  return { status: res.status, url: typeof json?.url === "string" ? json.url : undefined, body: json }
}

/** `signIn`'s options: the provider's fields, where to land, and `redirect: false` to stay on the page. */
export type SignInOptions = Record<string, unknown> & { redirectTo?: string; redirect?: boolean }

/** What `signIn` with `redirect: false` answers (as `next-auth/react`). */
export interface SignInResponse {
  error: string | undefined
  code: string | undefined
  status: number
  ok: boolean
  url: string | null
}

function navigate(to: string): void {
  window.location.href = to
  // A URL differing only by its hash does not load a page.
  if (to.includes("#")) window.location.reload()
}

function fields(options: SignInOptions, callbackUrl: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(options)) {
    if (key !== "redirect" && key !== "redirectTo" && value !== undefined && value !== null) out[key] = typeof value === "string" ? value : JSON.stringify(value)
  }
  out.callbackUrl = callbackUrl
  return out
}

/**
 * Signs in with `provider`: credentials and e-mail by a POST (then to `redirectTo`), OAuth by
 * going to the provider. Without a provider (or with an unknown one), the sign-in page. With
 * `redirect: false` (credentials, e-mail), resolves `{ ok, error, code, url }` and stays.
 */
export async function signIn(provider?: string, options: SignInOptions = {}, authorizationParams?: Record<string, string> | string | URLSearchParams): Promise<SignInResponse | undefined> {
  const callbackUrl = options.redirectTo ?? window.location.href
  const providers = await getProviders()
  if (!providers) return void navigate(`${basePath}/error`)
  const type = provider && Object.hasOwn(providers, provider) ? providers[provider]!.type : undefined
  if (!provider || !type) return void navigate(`${basePath}/signin?${new URLSearchParams({ callbackUrl })}`)
  if (type === "webauthn") throw new TypeError('Passkeys sign in with signInWithPasskey() from "@authlib/nextjs/react"')
  const action = `${type === "credentials" ? "callback" : "signin"}/${encodeURIComponent(provider)}`
  const answer = await post(action, fields(options, callbackUrl), new URLSearchParams(authorizationParams ?? "").toString())
  const to = answer.url ?? `${basePath}/error`
  if (options.redirect !== false || type === "oauth" || type === "oidc") return void navigate(to)
  const target = new URL(to, window.location.href)
  const error = target.searchParams.get("error") ?? undefined
  const code = target.searchParams.get("code") ?? undefined
  if (answer.status < 400 && !error) announce("signin")
  return { error, code, status: answer.status, ok: answer.status < 400 && !error, url: error ? null : to }
}

/** `signOut`'s options. */
export interface SignOutOptions {
  redirectTo?: string
  /** `false`: stay on the page and resolve `{ url }`. */
  redirect?: boolean
}

/** Signs out; other tabs follow (BroadcastChannel). */
export async function signOut(options: SignOutOptions = {}): Promise<{ url: string } | undefined> {
  const answer = await post("signout", { callbackUrl: options.redirectTo ?? window.location.href })
  announce("signout")
  const to = answer.url ?? options.redirectTo ?? window.location.href
  if (options.redirect === false) return { url: to }
  return void navigate(to)
}

/** POST /session: updates the session with `data` (the `jwt`/`session` callback's `trigger: "update"`). */
export async function updateSession(data: unknown): Promise<Session | null> {
  const res = await fetch(url("session"), {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ csrfToken: await getCsrfToken(), data }),
  })
  if (!res.ok) return null
  const session = (await res.json()) as Session | null
  announce("update")
  return session
}
