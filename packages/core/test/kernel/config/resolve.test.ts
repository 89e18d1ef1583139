import { describe, expect, it } from "vitest"
import { Client, config, credentials, recordingLogger } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import type { Adapter, AuthConfig, EmailConfig } from "../../../src/index.js"

function emailProvider(over: Partial<EmailConfig> = {}): EmailConfig {
  return { id: "email", name: "Email", type: "email", sendVerificationRequest: async () => {}, ...over }
}

/** Stores tokens and finds users, but cannot create, verify or link one. */
function emailOnlyAdapter(): Adapter {
  const { createVerificationToken, useVerificationToken, getUserByEmail } = memoryAdapter()
  return { createVerificationToken, useVerificationToken, getUserByEmail }
}

async function misconfigured(over: Partial<AuthConfig>) {
  const { logger, entries } = recordingLogger()
  const cfg = config({ logger, ...over })
  const client = new Client(cfg)
  const session = await client.request("/auth/session")
  const page = await client.request("/auth/signin")
  await client.request("/auth/providers")
  const errors = entries.filter((e) => e.level === "error")
  return { session, page, errors, entries }
}

describe("misconfiguration: logged once, every request answers Configuration", () => {
  const cases: Array<[string, Partial<AuthConfig>, string, string]> = [
    ["missing secret", { secret: undefined }, "MissingSecret", "SECRET_MISSING"],
    ["empty secret list", { secret: [] }, "MissingSecret", "SECRET_MISSING"],
    ["trustHost not set", { trustHost: undefined }, "UntrustedHost", "TRUST_HOST_FALSE"],
    ["trustHost false", { trustHost: false }, "UntrustedHost", "TRUST_HOST_FALSE"],
    ["credentials without authorize", { providers: [{ ...credentials(), authorize: undefined as never }] }, "MissingAuthorize", "AUTHORIZE_MISSING"],
    ["duplicate provider ids", { providers: [credentials(), credentials()] }, "DuplicateProviderId", "PROVIDER_ID_DUPLICATE"],
    ["webauthn without the experimental flag", { providers: [{ id: "passkey", name: "Passkey", type: "webauthn", simpleWebAuthn: () => import("@simplewebauthn/server") as never }] }, "ExperimentalFeatureNotEnabled", "WEBAUTHN_NOT_ENABLED"],
    ["database strategy without adapter", { session: { strategy: "database" } }, "MissingAdapter", "ADAPTER_MISSING"],
    ["database strategy with an adapter lacking session methods", { adapter: { createUser: async (u) => u } }, "MissingAdapterMethods", "ADAPTER_METHODS_MISSING"],
    ["e-mail provider without verification-token methods", { providers: [{ id: "email", name: "Email", type: "email", sendVerificationRequest: async () => {} }] }, "MissingAdapterMethods", "ADAPTER_METHODS_MISSING"],
    ["e-mail provider with an adapter that cannot store users", { adapter: emailOnlyAdapter(), session: { strategy: "jwt" }, providers: [emailProvider()] }, "MissingAdapterMethods", "ADAPTER_METHODS_MISSING"],
    ["e-mail provider without sendVerificationRequest", { adapter: memoryAdapter(), providers: [emailProvider({ sendVerificationRequest: undefined as never })] }, "Configuration", "EMAIL_SENDER_MISSING"],
    ["e-mail provider with maxAge 0", { adapter: memoryAdapter(), providers: [emailProvider({ maxAge: 0 })] }, "Configuration", "EMAIL_MAX_AGE_INVALID"],
    ["e-mail provider with a negative maxAge", { adapter: memoryAdapter(), providers: [emailProvider({ maxAge: -60 })] }, "Configuration", "EMAIL_MAX_AGE_INVALID"],
    ["e-mail provider with maxAge NaN", { adapter: memoryAdapter(), providers: [emailProvider({ maxAge: Number.NaN })] }, "Configuration", "EMAIL_MAX_AGE_INVALID"],
    ["e-mail provider with maxAge as a string", { adapter: memoryAdapter(), providers: [emailProvider({ maxAge: "600" as never })] }, "Configuration", "EMAIL_MAX_AGE_INVALID"],
    ["invalid application URL", { url: "not a url" }, "Configuration", "APP_URL_INVALID"],
    ["invalid cookie name override", { cookies: { sessionToken: { name: "bad name;" } } }, "Configuration", "COOKIE_NAME_INVALID"],
  ]
  for (const [name, over, type, code] of cases) {
    it(`${name} -> ${type} (${code})`, async () => {
      const { session, page, errors } = await misconfigured(over)
      expect(session.status).toBe(500)
      expect(await session.json()).toEqual({ error: "Configuration" })
      expect(page.status).toBe(500)
      expect(await page.text()).toContain("Server error")
      expect(errors).toHaveLength(1)
      expect(errors[0]!.code).toBe(type)
      expect(errors[0]!.message[0]).toMatchObject({ type, code })
    })
  }

  it("reports every problem of a config together, once, each with the option or env variable that fixes it", async () => {
    const oauth = { id: "github", name: "GitHub", type: "oauth", authorization: "https://github.com/login/oauth/authorize" } as const
    const { errors } = await misconfigured({ secret: undefined, trustHost: undefined, providers: [oauth as never, credentials(), credentials()] })
    expect(errors).toHaveLength(1)
    const err = errors[0]!.message[0] as Error & { code: string; cause: { problems: Array<{ code: string }> } }
    expect(err).toMatchObject({ type: "Configuration", code: "CONFIG_INVALID" })
    expect(err.cause.problems.map((p) => p.code)).toEqual(["SECRET_MISSING", "TRUST_HOST_FALSE", "CLIENT_ID_MISSING", "PROVIDER_ID_DUPLICATE"])
    for (const hint of ["AUTH_SECRET", "AUTH_TRUST_HOST", "AUTH_GITHUB_ID", '"id"']) expect(err.message).toContain(hint)
  })

  it("an OAuth provider without a client id is refused at start-up (not when clicked), naming AUTH_<ID>_ID", async () => {
    const { errors, session } = await misconfigured({ providers: [{ id: "azure-ad", name: "Azure", type: "oidc", issuer: "https://login.example" } as never] })
    expect(session.status).toBe(500)
    expect(errors[0]!.message[0]).toMatchObject({ type: "Configuration", code: "CLIENT_ID_MISSING" })
    expect((errors[0]!.message[0] as Error).message).toContain("AUTH_AZURE_AD_ID")
  })

  it.each([
    ["without url", { redirectProxyUrl: "https://proxy.example/auth" }, "REDIRECT_PROXY_NEEDS_APP_URL"],
    ["with an invalid proxy URL", { url: "https://app.example", redirectProxyUrl: "not a url" }, "REDIRECT_PROXY_URL_INVALID"],
    ["with an invalid allowed origin", { url: "https://app.example", redirectProxyAllowedOrigins: ["https://*.app"] }, "REDIRECT_PROXY_ORIGIN_INVALID"],
  ])("a redirect proxy set-up %s is refused at start-up (%s)", async (_label, over, code) => {
    const { errors } = await misconfigured(over)
    expect(errors[0]!.message[0]).toMatchObject({ type: "Configuration", code })
  })

  it("a provider's own redirectProxyUrl also needs url", async () => {
    const provider = { id: "op", name: "OP", type: "oidc", issuer: "https://op.example", clientId: "c", redirectProxyUrl: "https://proxy.example/auth" }
    const { errors } = await misconfigured({ providers: [provider as never] })
    expect(errors[0]!.message[0]).toMatchObject({ code: "REDIRECT_PROXY_NEEDS_APP_URL" })
  })

  it("a misconfigured deployment never redirects to a host taken from X-Forwarded-Host: the error page is the answer", async () => {
    const client = new Client(config({ trustHost: false, logger: recordingLogger().logger }))
    const forged = { "x-forwarded-host": "evil.example", host: "evil.example" }
    for (const path of ["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request", "/auth/callback/credentials"]) {
      const res = await client.request(path, { headers: forged, ...(path.includes("callback") ? { method: "POST", form: { csrfToken: "x" } } : {}) })
      expect(res.headers.get("location")).toBeNull()
      expect(res.status).toBe(500)
      expect(await res.text()).not.toContain("evil.example")
    }
  })

  it("a misconfigured deployment with pages.error redirects there on its configured url, or path-only without one", async () => {
    const withUrl = new Client(config({ secret: undefined, url: "https://app.example", pages: { error: "/oops" } }))
    const a = await withUrl.request("/auth/signin", { headers: { "x-forwarded-host": "evil.example" } })
    expect(a.headers.get("location")).toBe("https://app.example/oops?error=Configuration")
    const withoutUrl = new Client(config({ secret: undefined, pages: { error: "/oops" } }))
    const b = await withoutUrl.request("/auth/signin", { headers: { "x-forwarded-host": "evil.example" } })
    expect(b.headers.get("location")).toBe("/oops?error=Configuration")
  })

  it("the e-mail adapter error names the user methods it lacks", async () => {
    const { errors } = await misconfigured({ adapter: emailOnlyAdapter(), session: { strategy: "jwt" }, providers: [emailProvider()] })
    expect((errors[0]!.message[0] as Error).message).toContain("createUser, updateUser, getUserByAccount, linkAccount")
  })

  it("an e-mail provider with a positive maxAge and a full adapter is accepted", async () => {
    const { session, errors } = await misconfigured({ adapter: memoryAdapter(), providers: [emailProvider({ maxAge: 60 })] })
    expect(session.status).toBe(200)
    expect(errors).toHaveLength(0)
  })

  it("the database-methods error names the missing methods", async () => {
    const { errors } = await misconfigured({ adapter: { createUser: async (u) => u } })
    expect((errors[0]!.message[0] as Error).message).toContain("getSessionAndUser")
  })

  it("a Domain on the __Host- CSRF cookie is warned about", async () => {
    const { entries } = await misconfigured({ cookies: { csrfToken: { options: { domain: "example.com" } } } })
    expect(entries.some((e) => e.level === "warn" && e.code === "csrf-cookie-host-prefix")).toBe(true)
  })

  it("experimental.enableWebAuthn prints the experimental warning", async () => {
    const { entries } = await misconfigured({ experimental: { enableWebAuthn: true }, providers: [credentials()] })
    expect(entries.some((e) => e.level === "warn" && e.code === "experimental-webauthn" && String(e.message[0]).includes("experimental"))).toBe(true)
  })
})

describe("the caller's config is never written", () => {
  it("stays deep-equal and unfrozen after requests", async () => {
    const adapter = memoryAdapter()
    const cfg = config({ adapter, pages: { signIn: "/login" }, session: { maxAge: 100 } })
    const view = () => JSON.stringify({ ...cfg, adapter: Object.keys(cfg.adapter!) })
    const snapshot = view()
    const providers = cfg.providers
    const client = new Client(cfg)
    await client.signIn()
    await client.session()
    expect(view()).toBe(snapshot)
    expect(cfg.providers).toBe(providers)
    expect(Object.isFrozen(cfg)).toBe(false)
    expect(cfg.session).toEqual({ maxAge: 100 })
  })

  it("provider functions are called and their options applied without touching the preset", async () => {
    const preset = credentials({ options: { name: "Override" } })
    const client = new Client(config({ providers: [() => preset] }))
    expect(await (await client.request("/auth/providers")).json()).toMatchObject({ credentials: { name: "Override" } })
    expect(preset.name).toBe("Password")
  })
})

describe("a response that cannot be sent", () => {
  it("a cookie option the serializer rejects gives 500 Configuration, logged, not a throw", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger, cookies: { csrfToken: { options: { domain: "bad domain!" } } } }))
    const res = await client.request("/auth/csrf")
    expect(res.status).toBe(500)
    expect(entries.some((e) => e.level === "error")).toBe(true)
  })
})

describe("basePath and the application URL", () => {
  it("serves routes under a custom basePath", async () => {
    const client = new Client(config({ basePath: "/api/auth" }))
    expect((await client.request("/api/auth/providers")).status).toBe(200)
    expect((await client.request("/auth/providers")).status).toBe(404)
    expect(await (await client.request("/api/auth/providers")).json()).toMatchObject({ credentials: { signinUrl: "http://localhost:3000/api/auth/signin/credentials" } })
  })

  it("with url (WEBAUTH_URL) set, links use it, not a spoofed Host / X-Forwarded-Host", async () => {
    const client = new Client(config({ url: "https://app.example" }), "https://app.example")
    const res = await client.request("/auth/providers", { headers: { "x-forwarded-host": "evil.example" } })
    expect(await res.json()).toMatchObject({ credentials: { callbackUrl: "https://app.example/auth/callback/credentials" } })
    const spoofed = await Auth_providers("http://evil.example/auth/providers", config({ url: "https://app.example" }))
    expect(spoofed).toMatchObject({ credentials: { signinUrl: "https://app.example/auth/signin/credentials" } })
  })
})

async function Auth_providers(url: string, cfg: AuthConfig) {
  const { Auth } = await import("../../../src/index.js")
  return (await Auth(new Request(url), cfg)).json()
}
