/**
 * Start-up checks of passkey providers: each misconfiguration is reported once, by type and code,
 * and every request then answers `Configuration`; a good configuration starts cleanly.
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig, WebAuthnConfig } from "../../../src/index.js"
import { Client, config, recordingLogger } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { passkeyAdapter, passkeyProvider } from "./setup.js"

async function start(over: Partial<AuthConfig>, provider: Partial<WebAuthnConfig> = {}) {
  const { logger, entries } = recordingLogger()
  const cfg = config({ logger, url: "https://app.example.com", adapter: passkeyAdapter(), experimental: { enableWebAuthn: true }, providers: [passkeyProvider(provider)], ...over })
  const res = await new Client(cfg, "https://app.example.com").request("/auth/providers")
  return { res, errors: entries.filter((e) => e.level === "error").map((e) => e.message[0] as { type: string; code: string; message: string }) }
}

describe("passkey providers at start-up", () => {
  it("a good configuration starts; the provider is listed", async () => {
    const { res, errors } = await start({})
    expect(errors).toEqual([])
    expect(await res.json()).toMatchObject({ passkey: { id: "passkey", type: "webauthn" } })
  })

  const cases: Array<[string, Partial<AuthConfig>, Partial<WebAuthnConfig>, string, string, string?]> = [
    ["without the experimental flag", { experimental: {} }, {}, "ExperimentalFeatureNotEnabled", "WEBAUTHN_NOT_ENABLED"],
    ["with an adapter that has no authenticator methods", { adapter: memoryAdapter() }, {}, "MissingAdapterMethods", "ADAPTER_METHODS_MISSING", "getAuthenticator"],
    ["without an adapter", { adapter: undefined }, {}, "MissingAdapterMethods", "ADAPTER_METHODS_MISSING"],
    ["without a WebAuthn library loader", {}, { simpleWebAuthn: undefined as never }, "Configuration", "WEBAUTHN_MODULE_MISSING"],
    ["without url or relyingParty (no header may choose the RP ID)", { url: undefined }, {}, "Configuration", "RP_ID_INVALID", "WEBAUTH_URL"],
    ["with an RP ID that is a public suffix", {}, { relyingParty: { id: "github.io", origin: "https://me.github.io" }, isPublicSuffix: (h) => h === "github.io" }, "Configuration", "RP_ID_PUBLIC_SUFFIX"],
    ["with a top-level domain as RP ID", {}, { relyingParty: { id: "com", origin: "https://app.example.com" } }, "Configuration", "RP_ID_INVALID"],
    ["with an IP address as RP ID", { url: "http://127.0.0.1:3000" }, {}, "Configuration", "RP_ID_INVALID"],
    ["with an origin outside the RP ID", {}, { relyingParty: { id: "example.com", origin: "https://example.org" } }, "Configuration", "RP_ID_INVALID"],
  ]
  for (const [name, over, provider, type, code, mentions] of cases) {
    it(`${name}: ${type} (${code})`, async () => {
      const { res, errors } = await start(over, provider)
      expect(res.status).toBe(500)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatchObject({ type, code })
      if (mentions) expect(errors[0]!.message).toContain(mentions)
    })
  }

  it("Auth.js's relayingParty spelling is accepted, and a subdomain origin of the RP ID is fine", async () => {
    const { errors } = await start({}, { relayingParty: { id: "example.com", origin: ["https://app.example.com", "https://example.com"] } })
    expect(errors).toEqual([])
  })
})
