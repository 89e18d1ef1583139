/**
 * Passkey-management test set-up on top of the passkey helpers: passkeys stored without a
 * ceremony (for a second user), a user whose only way in is a passkey, and a snapshot of
 * everything management may change (to prove a refusal changed nothing).
 */
import { randomBytes } from "node:crypto"
import { expect } from "vitest"
import type { AdapterAuthenticator, AdapterUser, ProviderConfig, WebAuthnConfig } from "../../../src/index.js"
import { credentials, type Client, type RequestInitPlus } from "../../helpers/harness.js"
import { answer, options, passkeyProvider, setup, type PasskeyAdapter, type PasskeySetup } from "../webauthn/setup.js"

export const bob: AdapterUser = { id: "user-2", name: "Bob", email: "bob@example.com", emailVerified: null }

/** Stores a passkey (authenticator and `webauthn` account) of `userId`; returns its id as the browser knows it. */
export function seedPasskey(adapter: PasskeyAdapter, userId: string, over: Partial<AdapterAuthenticator> = {}): string {
  const raw = randomBytes(16)
  const credentialID = raw.toString("base64")
  adapter.authenticators.set(credentialID, {
    credentialID,
    providerAccountId: credentialID,
    userId,
    counter: 0,
    credentialBackedUp: true,
    credentialDeviceType: "multiDevice",
    credentialPublicKey: randomBytes(77).toString("base64"),
    transports: "internal,hybrid",
    createdAt: new Date("2026-01-02T03:04:05.000Z"),
    ...over,
  })
  adapter.accounts.push({ provider: "passkey", type: "webauthn", providerAccountId: credentialID, userId })
  return raw.toString("base64url")
}

export interface PasskeyOnly extends PasskeySetup {
  userId: string
  /** The passkey's id (base64url). */
  id: string
}

/**
 * A visitor who created an account with a passkey (`allowNewAccounts`): no e-mail, no other
 * account. `extra` providers join the password and passkey ones.
 */
export async function passkeyOnlyUser(strategy: "jwt" | "database", provider: Partial<WebAuthnConfig> = {}, extra: ProviderConfig[] = []): Promise<PasskeyOnly> {
  const s = setup(strategy, { providers: [credentials(), passkeyProvider({ allowNewAccounts: true, ...provider }), ...extra] })
  const { body } = await options(s.client, "?action=register&name=Pat")
  expect((await answer(s.client, "register", s.device.register(body.options))).status).toBe(302)
  const [stored] = [...s.adapter.authenticators.values()]
  return { ...s, userId: stored!.userId, id: s.device.credentials[0]!.id.toString("base64url") }
}

/** POST /auth/passkeys as a page script would: a form with a fresh CSRF token. */
export function change(client: Client, fields: Record<string, string>, init: RequestInitPlus = {}): Promise<Response> {
  return client.post("/auth/passkeys", fields, init)
}

/** The client's cookies as a `Cookie` header, for a server function's request. */
export function cookieHeader(client: Client): string {
  return [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ")
}

/** Everything passkey management may change. */
export function snapshot(adapter: PasskeyAdapter): string {
  return JSON.stringify({ authenticators: [...adapter.authenticators.values()], accounts: adapter.accounts, users: [...adapter.users.values()] })
}

/** The adapter's management writes so far. */
export const managementWrites = (adapter: PasskeyAdapter) =>
  adapter.calls.map((c) => c.method).filter((m) => m === "deleteAuthenticator" || m === "updateAuthenticator" || m === "unlinkAccount")
