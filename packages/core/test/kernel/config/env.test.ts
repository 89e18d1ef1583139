import { describe, expect, it } from "vitest"
import { setEnvDefaults } from "../../../src/index.js"
import type { AuthConfig, OAuth2Config } from "../../../src/index.js"
import { resolveConfig } from "../../../src/kernel/config/resolve.js"
import { configured } from "../../../src/registry.js"
import { Client, config, recordingLogger, SECRET } from "../../helpers/harness.js"

const oauth = (id: string, over: Partial<OAuth2Config> = {}): OAuth2Config => ({ id, name: id, type: "oauth", ...over })

describe("setEnvDefaults(env, config)", () => {
  it("AUTH_SECRET alone gives one secret", () => {
    const cfg: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_SECRET: "s0" }, cfg)
    expect(cfg.secret).toBe("s0")
  })

  it("rotation order: AUTH_SECRET first (encrypts), then AUTH_SECRET_1..3", () => {
    const cfg: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_SECRET_2: "s2", AUTH_SECRET: "s0", AUTH_SECRET_1: "s1", AUTH_SECRET_3: "s3" }, cfg)
    expect(cfg.secret).toEqual(["s0", "s1", "s2", "s3"])
  })

  it("never replaces values already set", () => {
    const cfg: AuthConfig = { providers: [], secret: "mine", trustHost: false, basePath: "/x", url: "https://mine.example" }
    setEnvDefaults({ AUTH_SECRET: "env", AUTH_TRUST_HOST: "true", WEBAUTH_URL: "https://env.example/a/b" }, cfg)
    expect(cfg).toMatchObject({ secret: "mine", trustHost: false, basePath: "/x", url: "https://mine.example" })
  })

  it("WEBAUTH_URL gives the application URL, its path the basePath, and trusts the host", () => {
    const cfg: AuthConfig = { providers: [] }
    setEnvDefaults({ WEBAUTH_URL: "https://app.example/api/auth/" }, cfg)
    expect(cfg).toMatchObject({ url: "https://app.example/api/auth/", basePath: "/api/auth", trustHost: true })
    const root: AuthConfig = { providers: [] }
    setEnvDefaults({ WEBAUTH_URL: "https://app.example" }, root)
    expect(root.basePath).toBeUndefined()
  })

  it.each([["false", false], ["0", false], ["true", true], ["1", true]])("AUTH_TRUST_HOST=%s -> %s", (value, expected) => {
    const cfg: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_TRUST_HOST: value, WEBAUTH_URL: "https://app.example" }, cfg)
    expect(cfg.trustHost).toBe(expected)
  })

  it("AUTH_REDIRECT_PROXY_URL", () => {
    const cfg: AuthConfig = { providers: [] }
    setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/auth" }, cfg)
    expect(cfg.redirectProxyUrl).toBe("https://proxy.example/auth")
  })

  it("fills AUTH_<ID>_ID/SECRET/ISSUER per OAuth provider (id upper-cased, non-alphanumerics as _), without mutating the provider", () => {
    const entra = oauth("microsoft-entra-id")
    const github = oauth("github", { clientId: "explicit" })
    const cfg: AuthConfig = { providers: [entra, () => github, { id: "credentials", name: "c", type: "credentials", credentials: {}, authorize: () => null }] }
    setEnvDefaults({
      AUTH_MICROSOFT_ENTRA_ID_ID: "eid", AUTH_MICROSOFT_ENTRA_ID_SECRET: "esecret", AUTH_MICROSOFT_ENTRA_ID_ISSUER: "https://login.example/t/v2.0",
      AUTH_GITHUB_ID: "from-env", AUTH_GITHUB_SECRET: "ghsecret",
    }, cfg)
    expect(cfg.providers[0]).toMatchObject({ clientId: "eid", clientSecret: "esecret", issuer: "https://login.example/t/v2.0" })
    expect(cfg.providers[1]).toMatchObject({ clientId: "explicit", clientSecret: "ghsecret" })
    expect(entra.clientId).toBeUndefined()
    expect(cfg.providers[2]).not.toHaveProperty("clientId")
  })

  it("fills AUTH_<ID>_KEY as an e-mail provider's apiKey, never over one that is set", () => {
    const mail = (id: string, over = {}) => ({ id, name: id, type: "email" as const, sendVerificationRequest: () => {}, ...over })
    const cfg: AuthConfig = { providers: [mail("resend"), mail("sendgrid", { apiKey: "explicit" }), mail("postmark", { options: { apiKey: "in-options" } })] }
    setEnvDefaults({ AUTH_RESEND_KEY: "re_123", AUTH_SENDGRID_KEY: "env", AUTH_POSTMARK_KEY: "env" }, cfg)
    expect(cfg.providers[0]).toMatchObject({ apiKey: "re_123" })
    expect(cfg.providers[1]).toMatchObject({ apiKey: "explicit" })
    expect(cfg.providers[2]).not.toHaveProperty("apiKey")
  })

  it("trusts the host in explicit development and on platforms that set Host (Vercel, Cloudflare Pages); not with NODE_ENV unset or production", () => {
    const trust = (env: Record<string, string>) => {
      const cfg: AuthConfig = { providers: [] }
      setEnvDefaults(env, cfg)
      return cfg.trustHost
    }
    expect(trust({ NODE_ENV: "development" })).toBe(true)
    expect(trust({ VERCEL: "1" })).toBe(true)
    expect(trust({ CF_PAGES: "1" })).toBe(true)
    expect(trust({})).toBeUndefined()
    expect(trust({ NODE_ENV: "production" })).toBeUndefined()
    expect(trust({ NODE_ENV: "development", AUTH_TRUST_HOST: "false" })).toBe(false)
  })

  it("reads a getter-style env (Qwik's ev.env) and ignores empty values", () => {
    const env = new Map([["AUTH_SECRET", ""], ["AUTH_SECRET_1", "s1"]])
    const cfg: AuthConfig = { providers: [] }
    setEnvDefaults({ get: (k: string) => env.get(k) }, cfg)
    expect(cfg.secret).toBe("s1")
  })
})

describe("an Auth.js AUTH_URL left over without WEBAUTH_URL", () => {
  /** The warnings of resolving a config completed from `env` (each config resolves once). */
  async function warnings(env: Record<string, string>, over: Partial<AuthConfig> = {}) {
    const { logger, entries } = recordingLogger()
    const cfg = config({ logger, secret: undefined, trustHost: undefined, ...over })
    setEnvDefaults(env, cfg)
    await new Client(cfg).request("/auth/session")
    await new Client(cfg).request("/auth/session")
    return entries.filter((e) => e.level === "warn" && e.code === "auth-url-ignored").map((e) => String(e.message[0]))
  }

  it("is named once through the config's logger, with WEBAUTH_URL, the variable to set instead", async () => {
    const said = await warnings({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", AUTH_URL: "https://app.example" })
    expect(said).toHaveLength(1)
    expect(said[0]).toMatch(/AUTH_URL.*WEBAUTH_URL/)
  })

  it("is not named when WEBAUTH_URL is set, or the config has its own url", async () => {
    expect(await warnings({ AUTH_SECRET: SECRET, AUTH_URL: "https://old.example", WEBAUTH_URL: "https://app.example" })).toEqual([])
    expect(await warnings({ AUTH_SECRET: SECRET, AUTH_URL: "https://old.example" }, { url: "https://app.example" })).toEqual([])
  })
})

describe("a missing secret, as the error says it", () => {
  it("on a config completed from an environment without AUTH_SECRET: set AUTH_SECRET", () => {
    const cfg: AuthConfig = { providers: [], trustHost: true, logger: recordingLogger().logger }
    setEnvDefaults({}, cfg)
    expect(resolveConfig(configured(cfg)).error).toMatchObject({ code: "SECRET_MISSING", message: expect.stringContaining("set AUTH_SECRET") })
    // A binding's copy of the completed config (Qwik's `{ ...config, raw }`) says the same.
    expect(resolveConfig(configured({ ...cfg })).error).toMatchObject({ code: "SECRET_MISSING", message: expect.stringContaining("set AUTH_SECRET") })
  })

  it("on a config never completed from the environment: never that AUTH_SECRET is unset (it may be set, just not read), but how to have it read", () => {
    const err = resolveConfig(configured({ providers: [], trustHost: true, logger: recordingLogger().logger })).error
    expect(err).toMatchObject({ code: "SECRET_MISSING" })
    expect(err!.message).not.toMatch(/set AUTH_SECRET/)
    expect(err!.message).toContain("not completed from the environment")
    expect(err!.message).toContain("setEnvDefaults(env, config)")
  })
})
