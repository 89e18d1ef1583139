/**
 * The switch as an app lives it (JWT strategy): a user signs in through `@auth/core` itself
 * (credentials, its own CSRF and cookies), then the same app runs on authlib with the same secret.
 * The user is still signed in, and the first answer moves the session to authlib's cookie.
 */
import { Auth as AuthJs } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { describe, expect, it } from "vitest"
import { Auth } from "../../../src/index.js"
import { SECRET } from "../../helpers/harness.js"

const ORIGIN = "http://localhost:3000"
const user = { id: "user-42", name: "Grace Hopper", email: "grace@example.com" }
const authorize = async (c: Partial<Record<string, unknown>>) => (c.username === "grace" && c.password === "cobol" ? { ...user } : null)
const quiet = { error() {}, warn() {}, debug() {} }

/** The browser's cookies after `res` (kept in `into`, a new jar by default), for the next request. */
function jar(res: Response, into = new CookieJar(ORIGIN)): CookieJar {
  into.keep(res)
  return into
}
const header = (cookies: CookieJar) => cookies.header()

describe("switching a JWT-session app from @auth/core to authlib", () => {
  it("a user signed in through Auth.js is still signed in after the switch, and the next answer re-issues our cookie", async () => {
    // 1. Auth.js v5 (the real @auth/core) signs Grace in.
    const authjsConfig = { providers: [AuthJsCredentials({ credentials: { username: {}, password: {} }, authorize: authorize as never })], secret: SECRET, trustHost: true, basePath: "/auth", logger: quiet }
    const csrf = await AuthJs(new Request(`${ORIGIN}/auth/csrf`), authjsConfig)
    const cookies = jar(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const signIn = await AuthJs(new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { cookie: header(cookies), "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ csrfToken, username: "grace", password: "cobol", callbackUrl: ORIGIN }),
    }), authjsConfig)
    jar(signIn, cookies)
    expect(cookies.has("authjs.session-token")).toBe(true)

    // 2. The same app, now on authlib: same secret, same provider.
    const config = { providers: [{ id: "credentials", name: "Credentials", type: "credentials" as const, credentials: { username: {}, password: {} }, authorize }], secret: SECRET, trustHost: true, logger: quiet }
    const session = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: header(cookies) } }), config)
    expect(await session.json()).toMatchObject({ user: { name: user.name, email: user.email } })
    jar(session, cookies)
    expect(cookies.has("authlib.session-token")).toBe(true)
    expect(cookies.has("authjs.session-token")).toBe(false)

    // 3. From now on authlib's own cookie carries the session.
    const again = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `authlib.session-token=${cookies.get("authlib.session-token")}` } }), config)
    expect(await again.json()).toMatchObject({ user: { email: user.email } })
  })
})
