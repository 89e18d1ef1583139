/**
 * Passkey test set-up: the memory adapter with authenticator methods, a WebAuthn provider on the
 * real `@simplewebauthn/server`, a credentials provider to sign in with first, and helpers that
 * run a ceremony through `Auth()` the way a browser would (options, then the POST with CSRF).
 */
import type { AdapterAccount, AdapterAuthenticator } from "../../../src/kernel/types/adapters.js"
import type { AuthConfig, WebAuthnConfig } from "../../../src/index.js"
import { alice, Client, config, ORIGIN, recordingLogger } from "../../helpers/harness.js"
import { memoryAdapter, type MemoryAdapter } from "../../helpers/memory-adapter.js"
import { SoftAuthenticator, type Tweak } from "./authenticator.js"

export interface PasskeyAdapter extends MemoryAdapter {
  authenticators: Map<string, AdapterAuthenticator>
}

/**
 * The core test adapter plus the authenticator methods (in memory), stamping `createdAt` and
 * `lastUsedAt` as the contract describes, and the optional management methods
 * (`deleteAuthenticator`, `updateAuthenticator`, `listAccountsByUserId`, `unlinkAccount`).
 */
export function passkeyAdapter(): PasskeyAdapter {
  const base = memoryAdapter()
  const authenticators = new Map<string, AdapterAuthenticator>()
  const log = <A extends unknown[], R>(method: string, fn: (...args: A) => R) => async (...args: A) => (base.calls.push({ method, args }), fn(...args))
  const accountIndex = (key: Pick<AdapterAccount, "provider" | "providerAccountId">) =>
    base.accounts.findIndex((a) => a.provider === key.provider && a.providerAccountId === key.providerAccountId)
  return Object.assign(base, {
    authenticators,
    getAuthenticator: log("getAuthenticator", (id: string) => authenticators.get(id) ?? null),
    createAuthenticator: log("createAuthenticator", (a: AdapterAuthenticator) => {
      const stored = { ...a, createdAt: a.createdAt ?? new Date() }
      authenticators.set(a.credentialID, stored)
      return { ...stored }
    }),
    listAuthenticatorsByUserId: log("listAuthenticatorsByUserId", (userId: string) => [...authenticators.values()].filter((a) => a.userId === userId).map((a) => ({ ...a }))),
    updateAuthenticatorCounter: log("updateAuthenticatorCounter", (id: string, counter: number) => {
      const next = { ...authenticators.get(id)!, counter, lastUsedAt: new Date() }
      authenticators.set(id, next)
      return next
    }),
    deleteAuthenticator: log("deleteAuthenticator", (id: string) => {
      const found = authenticators.get(id)
      authenticators.delete(id)
      return found ? { ...found } : null
    }),
    updateAuthenticator: log("updateAuthenticator", (id: string, patch: { name?: string | null }) => {
      const found = authenticators.get(id)
      if (!found) return null
      const next = { ...found, ...("name" in patch ? { name: patch.name ?? null } : {}) }
      authenticators.set(id, next)
      return { ...next }
    }),
    listAccountsByUserId: log("listAccountsByUserId", (userId: string) => base.accounts.filter((a) => a.userId === userId).map((a) => ({ ...a }))),
    unlinkAccount: log("unlinkAccount", (key: Pick<AdapterAccount, "provider" | "providerAccountId">) => {
      const i = accountIndex(key)
      return i < 0 ? undefined : base.accounts.splice(i, 1)[0]
    }),
  })
}

export function passkeyProvider(over: Partial<WebAuthnConfig> = {}): WebAuthnConfig {
  return { id: "passkey", name: "Passkey", type: "webauthn", simpleWebAuthn: () => import("@simplewebauthn/server") as never, ...over }
}

export interface PasskeySetup {
  client: Client
  adapter: PasskeyAdapter
  device: SoftAuthenticator
  config: AuthConfig
  log: ReturnType<typeof recordingLogger>
}

/** Alice exists in the adapter (so both strategies can add a passkey to her account). */
export function setup(strategy: "jwt" | "database", over: Partial<AuthConfig> = {}, provider: Partial<WebAuthnConfig> = {}): PasskeySetup {
  const adapter = passkeyAdapter()
  adapter.users.set(alice.id!, { ...alice, id: alice.id!, email: alice.email!, emailVerified: null })
  const log = recordingLogger()
  const base = config({ logger: log.logger })
  const cfg: AuthConfig = {
    ...base,
    url: ORIGIN,
    adapter,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    providers: [...base.providers, passkeyProvider(provider)],
    ...over,
  }
  return { client: new Client(cfg), adapter, device: new SoftAuthenticator("localhost", ORIGIN), config: cfg, log }
}

export interface OptionsAnswer {
  action: "register" | "authenticate"
  options: { challenge: string; rp: { id: string; name: string }; user: { id: string; name: string }; rpId?: string; allowCredentials?: Array<{ id: string }>; excludeCredentials?: Array<{ id: string }> }
}

export async function options(client: Client, query = "", provider = "passkey"): Promise<{ res: Response; body: OptionsAnswer & { error?: string; code?: string } }> {
  const res = await client.request(`/auth/webauthn-options/${provider}${query}`)
  return { res, body: (await res.json()) as OptionsAnswer & { error?: string; code?: string } }
}

/** POSTs a ceremony's answer as the built-in page does (a form with `action`, `data`, `csrfToken`). */
export function answer(client: Client, action: string, data: unknown, provider = "passkey"): Promise<Response> {
  return client.post(`/auth/callback/${provider}`, { action, data: typeof data === "string" ? data : JSON.stringify(data) })
}

/** Signs Alice in with her password, asks for register options, creates a passkey and posts it. */
export async function registerPasskey(s: PasskeySetup, tweak: Tweak = {}): Promise<Response> {
  await s.client.signIn()
  const { body } = await options(s.client, "?action=register")
  return answer(s.client, "register", s.device.register(body.options, tweak))
}

/** Asks for authenticate options and answers them with the device's last passkey. */
export async function signInWithPasskey(s: PasskeySetup, tweak: Tweak = {}): Promise<Response> {
  const { body } = await options(s.client, "?action=authenticate")
  return answer(s.client, "authenticate", s.device.authenticate(body.options, undefined, tweak))
}

/** Forgets the browser's session (and every other cookie). */
export function signOutLocally(client: Client): void {
  client.jar.clear()
}
