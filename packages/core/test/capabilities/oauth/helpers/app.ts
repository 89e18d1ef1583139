/**
 * The app under test: `Auth` answering in-process at APP, a browser, and the steps of a sign-in
 * as a user performs them (CSRF token, POST signin/:provider, the provider, the callback).
 */
import { Auth, type AuthConfig } from "../../../../src/index.js"
import { Browser, type Step } from "@authlib/e2e-kit/oidc/browser"
import { loginAtOP, type ProviderAnswer } from "@authlib/e2e-kit/oidc/op-login"

export const APP = "http://app.test"
export const callbackOf = (id: string) => `${APP}/auth/callback/${id}`

export interface LoggedError {
  type: string
  code: string | undefined
  error: unknown
}

/** A config for tests: trusted host, fixed secret, a logger that records errors instead of printing. */
export function testConfig(config: Partial<AuthConfig>, errors: LoggedError[] = []): AuthConfig {
  return {
    secret: "test-secret-0123456789abcdefghijklmnopqrstuvwxyz",
    trustHost: true,
    logger: {
      error: (type, error) => errors.push({ type, code: (error as { code?: string })?.code, error }),
      warn: () => {},
      debug: () => {},
    },
    providers: [],
    ...config,
  }
}

export function browserFor(config: AuthConfig, origin = APP): Browser {
  return new Browser(origin, (request) => Auth(request, config))
}

/** POST signin/:provider with a valid CSRF token; returns the app's answer (a redirect to the provider). */
export async function startSignIn(browser: Browser, providerId: string, query = ""): Promise<Step> {
  const origin = browser.appOrigin
  const csrf = await browser.request(`${origin}/auth/csrf`)
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  const url = `${origin}/auth/signin/${providerId}${query ? `?${query}` : ""}`
  return browser.form(url, { csrfToken, callbackUrl: `${origin}/dashboard` }, { origin })
}

/** The Location header of a step, resolved. */
export function locationOf(step: Step): string {
  const location = step.response.headers.get("location")
  if (!location) throw new Error(`expected a redirect, got ${step.response.status}: ${step.body.slice(0, 300)}`)
  return new URL(location, step.url).href
}

/** Delivers the provider's answer to the app and follows the app's own redirects. */
export async function deliver(browser: Browser, answer: ProviderAnswer): Promise<Step> {
  if (answer.kind === "redirect") return browser.request(answer.url)
  // A cross-site form POST, as the browser sends it from the provider's page.
  const posted = await browser.form(answer.action, answer.fields, { origin: answer.from, "sec-fetch-site": "cross-site" })
  if (posted.response.status !== 303) return posted
  return browser.request(locationOf(posted))
}

/** A whole sign-in at the local OP as `login`; returns the app's final answer to the callback. */
export async function signInAtLocalOP(browser: Browser, providerId: string, login: string, query = ""): Promise<Step> {
  const start = await startSignIn(browser, providerId, query)
  const answer = await loginAtOP(browser, locationOf(start), login)
  return deliver(browser, answer)
}

/** GET /auth/session as JSON. */
export async function sessionOf(browser: Browser): Promise<any> {
  const step = await browser.request(`${browser.appOrigin}/auth/session`)
  return JSON.parse(step.body)
}

/** The session cookie's value in the browser, if any. */
export function sessionCookie(browser: Browser): string | undefined {
  const cookies = browser.cookies(browser.appOrigin)
  for (const [name, value] of cookies) if (name.startsWith("authlib.session-token")) return value
  return undefined
}
