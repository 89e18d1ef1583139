/**
 * A browser for the Node tests' real `node:http` servers: `fetch` with a cookie jar, never
 * following redirects, and Alice's password sign-in through the app's own routes.
 */
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"

export function httpBrowser(origin: string) {
  const jar = new CookieJar(origin)
  const request = async (path: string, init: RequestInit = {}) => {
    const headers = jar.apply(new Headers(init.headers), `${origin}${path}`)
    return jar.keep(await fetch(`${origin}${path}`, { ...init, headers, redirect: "manual" }))
  }
  const signIn = async () => {
    const { csrfToken } = (await (await request("/auth/csrf")).json()) as { csrfToken: string }
    return request("/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin }, body: new URLSearchParams({ csrfToken, username: "alice", password: "wonderland" }) })
  }
  return { jar, request, signIn }
}
