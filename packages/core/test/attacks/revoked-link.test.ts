/**
 * Linking is a sign-in "while signed in": a stolen cookie whose sessions were ended must not link
 * the thief's IdP account to the victim (which would give the thief a permanent way in), and must
 * not hand the victim's ID token to a sign-out at the provider. Against a real OpenID provider, with
 * JWT sessions in both revocation modes and with database sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { revokeUserSessions, type AuthConfig, type OAuthConfig } from "../../src/index.js"
import { allowInsecureOAuthRequests } from "../../src/capabilities/oauth/index.js"
import { APP, browserFor, callbackOf, locationOf, signInAtLocalOP, testConfig } from "../capabilities/oauth/helpers/app.js"
import { Browser } from "@authlib/e2e-kit/oidc/browser"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"
import { memoryAdapter } from "../helpers/memory-adapter.js"

let op: LocalOP
beforeAll(async () => {
  op = await startLocalOP([callbackOf("op")], { postLogoutRedirectUris: [`${APP}/`] })
})
afterAll(() => op.close())

function setup(session: NonNullable<AuthConfig["session"]>) {
  const base = memoryAdapter()
  const adapter = Object.assign(base, { listAccountsByUserId: (userId: string) => base.accounts.filter((a) => a.userId === userId) })
  const provider = {
    id: "op", name: "Local OP", type: "oidc", issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret,
    [allowInsecureOAuthRequests]: true, signOutAtProvider: true,
  } as unknown as OAuthConfig
  const config = testConfig({ providers: [provider], adapter, session })
  return { config, adapter }
}

/** A second browser holding a copy of `victim`'s cookies for the app. */
function copyOf(victim: Browser, config: AuthConfig): Browser {
  const thief = browserFor(config)
  for (const [name, value] of victim.cookies(APP)) thief.cookies(APP).set(name, value)
  return thief
}

describe.each([
  { strategy: "jwt", checkRevocation: "on-reissue" },
  { strategy: "jwt", checkRevocation: "every-request" },
  { strategy: "database" },
] as const)("a revoked session links nothing (%o)", (session) => {
  it("the thief's IdP sign-in with the stolen cookie makes a user of its own; the victim keeps one account", async () => {
    const { config, adapter } = setup(session)
    const victim = browserFor(config)
    await signInAtLocalOP(victim, "op", "alice")
    const aliceId = adapter.accounts[0]!.userId
    const thief = copyOf(victim, config)
    await revokeUserSessions(config, aliceId)

    await signInAtLocalOP(thief, "op", "bob")
    const bobAccount = adapter.accounts.find((a) => a.providerAccountId === "bob")!
    expect(bobAccount.userId).not.toBe(aliceId)
    expect(adapter.accounts.filter((a) => a.userId === aliceId).map((a) => a.providerAccountId)).toEqual(["alice"])
  })

  it("a sign-out with the stolen cookie does not carry the victim's ID token to the provider", async () => {
    const { config, adapter } = setup(session)
    const victim = browserFor(config)
    await signInAtLocalOP(victim, "op", "alice")
    const thief = copyOf(victim, config)
    await revokeUserSessions(config, adapter.accounts[0]!.userId)
    const { csrfToken } = JSON.parse((await thief.request(`${APP}/auth/csrf`)).body) as { csrfToken: string }
    const out = await thief.form(`${APP}/auth/signout`, { csrfToken, callbackUrl: `${APP}/` }, { origin: APP })
    expect(locationOf(out)).toBe(`${APP}/`)
  })
})
