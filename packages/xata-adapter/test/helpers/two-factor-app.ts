/**
 * The app of the two-process replay test, as each child process and the test itself run it: the
 * same secret (they are one app), database sessions, two-factor sign-in, no rate limit (so only the
 * single use of a code decides), a password provider over the adapter's users.
 */
import { Auth, type AdapterUser, type AuthConfig } from "@authlib/core"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"

export const ORIGIN = "http://app.test"

/** The app both processes and the test itself run (same secret: they are one app). */
export function twoFactorAppConfig(adapter: NonNullable<AuthConfig["adapter"]>): AuthConfig {
  return {
    secret: "two-instances-share-this-secret-0123456789",
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    twoFactor: { issuer: "Replay" },
    rateLimit: false,
    logger: { error: (...args) => console.error(...args), warn: () => {}, debug: () => {} },
    providers: [
      {
        id: "password",
        name: "Password",
        type: "credentials",
        credentials: { email: { label: "E-mail" }, password: { label: "Password", type: "password" } },
        async authorize(c) {
          if (c.password !== "correct" || typeof c.email !== "string") return null
          return ((await adapter.getUserByEmail?.(c.email)) ?? null) as AdapterUser | null
        },
      },
    ],
  }
}

/**
 * One browser of the app: its own cookie jar (so each holds its own pending sign-in), GETs, and
 * POSTs of a form, or of JSON as a script posts (a refused code then answers 401, not a redirect).
 */
export function appBrowser(config: AuthConfig) {
  const jar = new CookieJar(ORIGIN)
  async function send(path: string, form?: Record<string, string>, json = false): Promise<Response> {
    const headers = jar.apply(new Headers(form ? { origin: ORIGIN, "content-type": json ? "application/json" : "application/x-www-form-urlencoded" } : {}))
    const body = form && (json ? JSON.stringify(form) : new URLSearchParams(form))
    return jar.keep(await Auth(new Request(`${ORIGIN}${path}`, body ? { method: "POST", headers, body } : { headers }), config))
  }
  const csrf = async () => ((await (await send("/auth/csrf")).json()) as { csrfToken: string }).csrfToken
  const post = async (path: string, form: Record<string, string>) => send(path, { csrfToken: await csrf(), ...form })
  const hasSession = () => [...jar].some(([name, value]) => name.endsWith("authlib.session-token") && value !== "")
  return { send, csrf, post, hasSession }
}
