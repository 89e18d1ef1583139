/**
 * A test double of Qwik City's request event: just the members the binding uses, recording what
 * it does to the response (cookies set, headers, redirect, sent response, fail status). Core is
 * never faked: the binding under test calls the real, built `@authlib/core`.
 */
import type { RequestEventAction, RequestEventLoader } from "@builder.io/qwik-city"
import { parseCookie } from "cookie"

export interface SetCall {
  name: string
  value: string
  options: Record<string, unknown>
}

/** Thrown by the fake `error`, as Qwik's `ServerError` is. */
export class Errored {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

/** Thrown by the fake `redirect`, as Qwik's `RedirectMessage` is. */
export class Redirected {
  constructor(
    readonly status: number,
    readonly location: string,
  ) {}
}

export interface Recorded {
  cookies: SetCall[]
  redirect?: Redirected
  sent?: Response
  status: number
}

export type FakeEvent = RequestEventLoader & { recorded: Recorded }

export interface FakeInit {
  method?: string
  cookie?: string
  headers?: Record<string, string>
  body?: string
  env?: Record<string, string>
  /** The peer address Qwik City's adapter would report (`ev.clientConn.ip`). */
  clientAddress?: string
}

function fakeCookie(header: string, recorded: Recorded) {
  const live: Record<string, string | null> = { ...parseCookie(header) } as Record<string, string>
  return {
    get: (name: string) => (live[name] ? { value: live[name]!, json: () => JSON.parse(live[name]!), number: () => Number(live[name]) } : null),
    getAll: () => ({}),
    has: (name: string) => !!live[name],
    set(name: string, value: string, options: Record<string, unknown> = {}) {
      live[name] = value
      recorded.cookies.push({ name, value, options })
    },
    append(name: string, value: string, options: Record<string, unknown> = {}) {
      this.set(name, value, options)
    },
    delete(name: string) {
      live[name] = null
    },
    headers: () => [],
  }
}

/** A request event for `url` (absolute), as Qwik City would hand it to a plugin, loader or action. */
export function fakeEvent(url: string, init: FakeInit = {}): FakeEvent {
  const headers = new Headers(init.headers)
  if (init.cookie) headers.set("cookie", init.cookie)
  const request = new Request(url, { method: init.method ?? "GET", headers, ...(init.body !== undefined ? { body: init.body } : {}) })
  const recorded: Recorded = { cookies: [], status: 200 }
  const env = init.env ?? {}
  const ev = {
    recorded,
    request,
    url: new URL(url),
    method: request.method,
    pathname: new URL(url).pathname,
    headers: new Headers(),
    sharedMap: new Map<string, unknown>(),
    clientConn: init.clientAddress === undefined ? {} : { ip: init.clientAddress },
    env: { get: (key: string) => env[key] },
    cookie: fakeCookie(init.cookie ?? "", recorded),
    status: (code?: number) => (code === undefined ? recorded.status : (recorded.status = code)),
    redirect(status: number, location: string) {
      recorded.status = status
      return (recorded.redirect = new Redirected(status, location))
    },
    error(status: number, message: string) {
      recorded.status = status
      return new Errored(status, message)
    },
    send(response: Response) {
      recorded.sent = response
      return {}
    },
    fail(status: number, data: Record<string, unknown>) {
      recorded.status = status
      return { failed: true, ...data }
    },
    parseBody: async () => (init.body ? Object.fromEntries(new URLSearchParams(init.body)) : null),
  }
  return ev as unknown as FakeEvent
}

/** The Cookie header a browser would send next, after the cookies `events` set (in order). */
export function browserCookies(previous: string, ...events: FakeEvent[]): string {
  const jar = new Map(Object.entries(parseCookie(previous)).filter((e): e is [string, string] => e[1] !== undefined))
  for (const ev of events) {
    for (const { name, value, options } of ev.recorded.cookies) {
      if (typeof options.maxAge === "number" && options.maxAge <= 0) jar.delete(name)
      else jar.set(name, value)
    }
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
}

type ActionLike = { __validators?: { validate(ev: unknown, data: unknown): Promise<{ success: boolean; data?: unknown; error?: Record<string, unknown>; status?: number }> }[]; __qrl: { call(self: unknown, ...args: unknown[]): Promise<unknown> } }

/**
 * Runs an action as Qwik City's action middleware does: validators in order (a failure becomes
 * `ev.fail(status, error)`), then the action's QRL with the validated data.
 */
export async function runAction(action: unknown, ev: FakeEvent, data: Record<string, unknown>): Promise<unknown> {
  const { __validators = [], __qrl } = action as ActionLike
  let input: unknown = data
  for (const validator of __validators) {
    const result = await validator.validate(ev, input)
    if (!result.success) return ev.fail(result.status ?? 500, result.error ?? {})
    input = result.data
  }
  return __qrl.call(ev as RequestEventAction, input, ev)
}

/** Runs a route loader as Qwik City does. */
export async function runLoader(loader: unknown, ev: FakeEvent): Promise<unknown> {
  return (loader as ActionLike).__qrl.call(ev, ev)
}
