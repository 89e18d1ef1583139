/**
 * The Passkey provider with core and the Xata adapter on PGlite (real Postgres): a signed-in user
 * adds a passkey (a software authenticator signs real WebAuthn responses), signs out and signs in
 * with it; the authenticator row is stored as Auth.js stores it. Plus the preset's defaults, the
 * public-suffix check and a missing `@simplewebauthn/server`.
 */
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { PGlite } from "@electric-sql/pglite"
import { Auth, type AuthConfig } from "@authlib/core"
import Credentials from "@authlib/providers/credentials"
import Passkey, { isPublicSuffix, loadSimpleWebAuthn } from "@authlib/providers/passkey"
import { XataAdapter, migrate } from "@authlib/xata-adapter"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SoftAuthenticator } from "../../core/test/capabilities/webauthn/authenticator.js"

const APP = "http://localhost:3000"
let db: PGlite

beforeAll(async () => {
  db = new PGlite()
  await migrate(db)
}, 30_000)
afterAll(async () => {
  await db?.close()
})

/** A cookie jar over `Auth()` for one configuration. */
function browser(config: AuthConfig) {
  const jar = new CookieJar(APP)
  const request = async (path: string, form?: Record<string, string>) => {
    const headers = jar.apply(new Headers(), `${APP}${path}`)
    if (form) (headers.set("content-type", "application/x-www-form-urlencoded"), headers.set("origin", APP))
    const res = await Auth(new Request(`${APP}${path}`, { method: form ? "POST" : "GET", headers, ...(form ? { body: new URLSearchParams(form) } : {}) }), config)
    return jar.keep(res, `${APP}${path}`)
  }
  const post = async (path: string, form: Record<string, string>) => {
    const { csrfToken } = (await (await request("/auth/csrf")).json()) as { csrfToken: string }
    return request(path, { ...form, csrfToken })
  }
  return { jar, request, post }
}

function configWith(provider = Passkey()): AuthConfig {
  return {
    url: APP,
    secret: "passkey-provider-test-secret-0123456789abcdef",
    trustHost: true,
    adapter: XataAdapter(db),
    session: { strategy: "database" },
    experimental: { enableWebAuthn: true },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [Credentials({ authorize: async () => ({ id: "ignored", name: "Ada", email: "ada@example.com" }) }), provider],
  }
}

describe("Passkey() with core and the Xata adapter on PGlite", () => {
  it("a signed-in user adds a passkey, signs out and signs in with it", async () => {
    const config = configWith()
    const b = browser(config)
    const device = new SoftAuthenticator("localhost", APP)
    expect((await b.post("/auth/callback/credentials", {})).status).toBe(302)
    const reg = (await (await b.request("/auth/webauthn-options/passkey?action=register")).json()) as { action: string; options: never }
    expect(reg.action).toBe("register")
    const registered = await b.post("/auth/callback/passkey", { action: "register", data: JSON.stringify(device.register(reg.options)) })
    expect(registered.headers.get("location")).toBe(`${APP}/`)

    const rows = await db.query<{ credentialID: string; counter: string; transports: string }>(`SELECT "credentialID", counter, transports FROM authlib_authenticators`)
    expect(rows.rows).toEqual([{ credentialID: device.credentials[0]!.id.toString("base64"), counter: expect.anything(), transports: "internal" }])

    b.jar.clear()
    const auth = (await (await b.request("/auth/webauthn-options/passkey?action=authenticate")).json()) as { options: never }
    const signedIn = await b.post("/auth/callback/passkey", { action: "authenticate", data: JSON.stringify(device.authenticate(auth.options)) })
    expect(signedIn.headers.get("location")).toBe(`${APP}/`)
    expect(await (await b.request("/auth/session")).json()).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })
    const counter = await db.query<{ counter: number }>(`SELECT counter FROM authlib_authenticators`)
    expect(Number(counter.rows[0]!.counter)).toBe(1)
  })

  it("a missing @simplewebauthn/server is a Configuration error that says what to install", async () => {
    const errors: unknown[] = []
    const config = { ...configWith(Passkey({ simpleWebAuthn: () => loadSimpleWebAuthn("@simplewebauthn/not-installed-here") })), logger: { error: (_c: string, e: unknown) => void errors.push(e), warn: () => {}, debug: () => {} } }
    const res = await browser(config).request("/auth/webauthn-options/passkey")
    expect(res.status).toBe(500)
    expect(errors[0]).toMatchObject({ type: "Configuration", code: "WEBAUTHN_MODULE_MISSING" })
    expect((errors[0] as Error).message).toContain("pnpm add @simplewebauthn/server")
  })
})

describe("the preset", () => {
  it("defaults: id passkey, user verification required, attestation none; options override", () => {
    expect(Passkey()).toMatchObject({ id: "passkey", name: "Passkey", type: "webauthn", userVerification: "required", attestationType: "none" })
    expect(Passkey({ id: "key", userVerification: "preferred", relyingParty: { name: "My app" } })).toMatchObject({ id: "key", userVerification: "preferred", relyingParty: { name: "My app" } })
  })

  it("knows public suffixes, private registries included", () => {
    for (const suffix of ["com", "co.uk", "github.io", "vercel.app"]) expect(isPublicSuffix(suffix), suffix).toBe(true)
    for (const domain of ["example.com", "me.github.io", "app.example.co.uk"]) expect(isPublicSuffix(domain), domain).toBe(false)
  })
})

describe("PasskeyUserConfig", () => {
  it("types the hooks' parameters (a wrong option does not compile)", () => {
    const provider = Passkey({ getRelyingParty: ({ url }) => ({ id: url.hostname, name: "x", origin: url.origin }) })
    // @ts-expect-error userVerification takes one of three strings
    Passkey({ userVerification: "sometimes" })
    expect(typeof provider.getRelyingParty).toBe("function")
  })
})
