/** `QwikAuth$` over a test config, counting how often the config function runs. */
import { QwikAuth$, type QwikAuthConfig } from "../../src/index.js"
import { ada, ORIGIN, testConfig } from "./config.js"
import { browserCookies, fakeEvent, type FakeEvent } from "./fake-event.js"

/**
 * Configs live at module scope, looked up by a key: what `QwikAuth$` captures must be serializable
 * (Qwik checks), and an app's config function builds its config rather than capturing one.
 */
const registry = new Map<string, { config: QwikAuthConfig; calls: number }>()

export function setup(config: QwikAuthConfig = testConfig()) {
  const key = crypto.randomUUID()
  registry.set(key, { config, calls: 0 })
  const auth = QwikAuth$(() => {
    const entry = registry.get(key)!
    entry.calls++
    return entry.config
  })
  return { auth, configCalls: () => registry.get(key)!.calls }
}

export type TestAuth = ReturnType<typeof setup>["auth"]

/** Runs `onRequest`; returns what it threw (a redirect) or undefined. */
export async function handle(auth: TestAuth, ev: FakeEvent): Promise<unknown> {
  try {
    await auth.onRequest(ev)
    return undefined
  } catch (thrown) {
    return thrown
  }
}

export async function csrf(auth: TestAuth) {
  const ev = fakeEvent(`${ORIGIN}/auth/csrf`)
  await handle(auth, ev)
  const { csrfToken } = (await ev.recorded.sent!.json()) as { csrfToken: string }
  return { csrfToken, cookie: browserCookies("", ev) }
}

/** Signs Ada in through the browser's route (POST /auth/callback/password); returns the Cookie header. */
export async function signInThroughRoute(auth: TestAuth): Promise<{ ev: FakeEvent; thrown: unknown; cookie: string }> {
  const { csrfToken, cookie } = await csrf(auth)
  const body = new URLSearchParams({ csrfToken, email: ada.email, password: "correct horse", callbackUrl: `${ORIGIN}/account` })
  const ev = fakeEvent(`${ORIGIN}/auth/callback/password`, {
    method: "POST",
    cookie,
    body: body.toString(),
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
  })
  const thrown = await handle(auth, ev)
  return { ev, thrown, cookie: browserCookies(cookie, ev) }
}

/**
 * A form action posted to /account/ (same-origin `Origin` unless `headers` say otherwise), after
 * the plugin's onRequest ran, as Qwik City orders it.
 */
export async function actionEvent(auth: TestAuth, headers: Record<string, string> = { origin: ORIGIN }, cookie = ""): Promise<FakeEvent> {
  const ev = fakeEvent(`${ORIGIN}/account/?qaction=abc123`, {
    method: "POST",
    cookie,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  })
  await handle(auth, ev)
  return ev
}

/** What `run` resolved to or threw (actions end by throwing redirects and errors). */
export async function outcome(run: Promise<unknown>): Promise<unknown> {
  try {
    return await run
  } catch (thrown) {
    return thrown
  }
}
