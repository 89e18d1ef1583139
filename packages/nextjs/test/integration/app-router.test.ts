/**
 * The fixture app under a real `next build` + `next start`, for Next 16 (proxy.ts, Node.js) and
 * 15.5 (middleware.ts on its default runtime, the edge): the route handler, `auth()` in server components and route handlers,
 * server-action `signIn`/`signOut`/`unstable_update`, the proxy with `callbacks.authorized`, and an
 * Auth.js v5 cookie that keeps its user signed in.
 */
import { encode as authjsEncode } from "@auth/core/jwt"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SECRET, startFixture, type NextVersion, type RunningApp } from "../helpers/next-app.js"
import { textOf, Visitor } from "../helpers/browserless.js"

const ada = { name: "Ada Lovelace", email: "ada@example.test" }

async function signedIn(app: RunningApp): Promise<Visitor> {
  const visitor = new Visitor(app.url)
  const res = await visitor.submit("/", "sign-in")
  expect(res.status).toBe(303)
  expect(visitor.jar.has("authlib.session-token")).toBe(true)
  return visitor
}

function sessionOn(html: string): { user?: { name?: string; email?: string } } | null {
  return JSON.parse(textOf(html, "session")) as never
}

describe.each(["16", "15"] as NextVersion[])("Next %s", (version) => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startFixture(version)
  })
  afterAll(async () => {
    await app?.stop()
  })

  describe("route handler (handlers.GET/POST at /api/auth)", () => {
    it("answers core's routes: providers, csrf, session", async () => {
      const visitor = new Visitor(app.url)
      expect(await visitor.json("/api/auth/providers")).toMatchObject({ credentials: { id: "credentials", type: "credentials" } })
      expect(await visitor.json("/api/auth/csrf")).toMatchObject({ csrfToken: expect.any(String) })
      expect(visitor.jar.has("authlib.csrf-token")).toBe(true)
      expect(await visitor.json("/api/auth/session")).toBeNull()
    })

    it("signs in with credentials over HTTP as the browser's form does", async () => {
      const visitor = new Visitor(app.url)
      const { csrfToken } = (await visitor.json("/api/auth/csrf")) as { csrfToken: string }
      const res = await visitor.request("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
        body: new URLSearchParams({ csrfToken, email: ada.email, password: "correct horse", callbackUrl: `${app.url}/` }),
      })
      expect(res.status).toBe(302)
      expect(await visitor.json("/api/auth/session")).toMatchObject({ user: ada })
    })

    it("refuses a POST from another origin (core's CSRF check)", async () => {
      const visitor = new Visitor(app.url)
      const { csrfToken } = (await visitor.json("/api/auth/csrf")) as { csrfToken: string }
      const res = await visitor.request("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
        body: new URLSearchParams({ csrfToken, email: ada.email, password: "correct horse" }),
      })
      expect(res.status).toBeGreaterThanOrEqual(300)
      expect(visitor.jar.has("authlib.session-token")).toBe(false)
    })
  })

  describe("server actions", () => {
    it("signIn(\"credentials\", formData) sets the session and redirects; auth() in the server component sees it", async () => {
      const visitor = await signedIn(app)
      expect(sessionOn(await visitor.html("/"))).toMatchObject({ user: ada })
    })

    it("a refused credentials sign-in throws CredentialsSignin with its code, and sets no session", async () => {
      const visitor = new Visitor(app.url)
      const res = await visitor.submit("/", "sign-in", { password: "wrong" })
      expect(res.status).toBe(303)
      expect(res.headers.get("location")).toContain("/?error=CredentialsSignin&code=wrong_password")
      expect(visitor.jar.has("authlib.session-token")).toBe(false)
    })

    it("a server action posted from another origin is refused and signs no one in", async () => {
      const visitor = new Visitor(app.url)
      const res = await visitor.submit("/", "sign-in", {}, "http://evil.example")
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(visitor.jar.has("authlib.session-token")).toBe(false)
    })

    it("signIn(provider, { redirect: false }, authorizationParams) in a route handler answers the provider's URL with the params", async () => {
      const visitor = new Visitor(app.url)
      const res = await visitor.request("/api/sign-in-url", { method: "POST", headers: { origin: app.url } })
      const { url } = (await res.json()) as { url: string }
      const target = new URL(url)
      expect(`${target.origin}${target.pathname}`).toBe("https://auth.example.test/authorize")
      expect(target.searchParams.get("prompt")).toBe("login")
      expect(target.searchParams.get("client_id")).toBe("fixture-client")
      // The flow's check cookies went out with the handler's response.
      expect(visitor.jar.all().some((c) => c.name.startsWith("authlib.pkce") || c.name.startsWith("authlib.state"))).toBe(true)
    })

    it("core's origin check still refuses a cross-site call where Next checks none (a route handler)", async () => {
      const visitor = new Visitor(app.url)
      const res = await visitor.request("/api/sign-in-url", { method: "POST", headers: { origin: "http://evil.example" } })
      const body = (await res.json()) as { url?: string; error?: string }
      // Core answers its error page, never the provider's authorization URL.
      expect(body.url ?? "").not.toContain("auth.example.test")
      expect(new URL(body.url!, app.url).searchParams.get("error")).toBe("MissingCSRF")
    })

    it("signOut() clears the session", async () => {
      const visitor = await signedIn(app)
      const res = await visitor.submit("/", "sign-out")
      expect(res.status).toBe(303)
      expect(visitor.jar.has("authlib.session-token")).toBe(false)
      expect(sessionOn(await visitor.html("/"))).toBeNull()
    })

    it("unstable_update re-issues the session: the next request's server component sees the new name", async () => {
      const visitor = await signedIn(app)
      const res = await visitor.submit("/", "rename", { name: "Ada King" })
      expect(res.status).toBeLessThan(400)
      expect(sessionOn(await visitor.html("/"))).toMatchObject({ user: { name: "Ada King", email: ada.email } })
    })
  })

  describe("auth()", () => {
    it("is read once per request in a server component (same object, one jwt callback)", async () => {
      const visitor = await signedIn(app)
      const html = await visitor.html("/")
      expect(textOf(html, "same")).toBe("true")
      const first = Number(textOf(html, "reads"))
      const second = Number(textOf(await visitor.html("/"), "reads"))
      // One read per request, whatever the number of auth() calls in its layout and page.
      expect(second - first).toBe(1)
    })

    it("works in a route handler and through auth(handler) as req.auth", async () => {
      const visitor = await signedIn(app)
      expect(await visitor.json("/api/me")).toMatchObject({ session: { user: ada } })
      expect(await visitor.json("/api/me-wrapped")).toMatchObject({ session: { user: ada } })
      expect(await new Visitor(app.url).json("/api/me-wrapped")).toEqual({ session: null })
    })

    it("reaches core's server functions (requireRecentAuthentication) through the binding's wrapper", async () => {
      const visitor = await signedIn(app)
      expect(textOf(await visitor.html("/"), "recent")).toBe("user-ada")
    })
  })

  describe(version === "16" ? "proxy (proxy.ts, Node.js runtime)" : "middleware (middleware.ts, edge runtime)", () => {
    it("authorized → false: a signed-out visitor goes to the sign-in page with callbackUrl", async () => {
      const res = await new Visitor(app.url).request("/protected?x=1")
      expect(res.status).toBe(307)
      const location = new URL(res.headers.get("location")!, app.url)
      expect(location.pathname).toBe("/api/auth/signin")
      expect(location.searchParams.get("callbackUrl")).toBe(`${app.url}/protected?x=1`)
    })

    it("authorized → true for a signed-in user: the page renders", async () => {
      const visitor = await signedIn(app)
      expect(textOf(await visitor.html("/protected"), "protected")).toBe(`Hello ${ada.name}`)
    })

    it("a Response from authorized is answered as it is", async () => {
      const res = await new Visitor(app.url).request("/forbidden")
      expect(res.status).toBe(403)
      expect(await res.text()).toBe("Forbidden here")
    })
  })

  describe("Pages Router (getServerSession from @authlib/nextjs/pages)", () => {
    it("reads the session in an API route", async () => {
      const visitor = await signedIn(app)
      expect(await visitor.json("/api/pages-session")).toMatchObject({ session: { user: ada } })
      expect(await new Visitor(app.url).json("/api/pages-session")).toEqual({ session: null })
    })
  })

  describe("moving from Auth.js v5", () => {
    it("a route handler outside the proxy re-issues the Auth.js cookie under authlib's name (auth() sets cookies there)", async () => {
      const visitor = new Visitor(app.url)
      visitor.jar.set("authjs.session-token", await authjsEncode({ token: { ...ada, sub: "user-ada" }, secret: SECRET, salt: "authjs.session-token" }))
      const res = await visitor.request("/api/me")
      expect(await res.json()).toMatchObject({ session: { user: ada } })
      expect(res.headers.getSetCookie().some((c) => c.startsWith("authlib.session-token="))).toBe(true)
      expect(visitor.jar.has("authjs.session-token")).toBe(false)
      expect(await visitor.json("/api/pages-session")).toMatchObject({ session: { user: ada } })
    })

    it("an authjs.session-token cookie keeps its user signed in, re-issued under authlib's name", async () => {
      const visitor = new Visitor(app.url)
      const token = await authjsEncode({ token: { ...ada, sub: "user-ada" }, secret: SECRET, salt: "authjs.session-token" })
      visitor.jar.set("authjs.session-token", token)
      expect(sessionOn(await visitor.html("/"))).toMatchObject({ user: ada })
      expect(visitor.jar.has("authlib.session-token")).toBe(true)
      expect(visitor.jar.has("authjs.session-token")).toBe(false)
      // The next request runs on authlib's cookie alone.
      expect(await visitor.json("/api/me")).toMatchObject({ session: { user: ada } })
    })
  })
})
