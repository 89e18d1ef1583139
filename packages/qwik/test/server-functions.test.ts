/**
 * The one generic wrapper over core's server functions (`src/server-functions.ts`): the binding
 * exports every function of core's typed map by its name and nothing else, each resolves or throws
 * exactly what core's own function does, a typed error reaches the caller as thrown, cookies core
 * answers with an error are set before it does, and the exported types are those the hand-written
 * functions had.
 */
import type { ActiveOrganization, AdapterAccount, AuthenticationInfo, Organization, OrganizationMembership, OrganizationWithRole, GetAccessTokenOptions, LinkedAccount, PasskeyInfo, PendingTwoFactorInfo, ProviderAccessToken, RecentAuthentication, SessionInfo, SignInMethod, StepUpResult, TotpEnrollment, TwoFactorStatus } from "@authlib/core"
import { serverFunctions, type ServerFunctions } from "@authlib/core/internal"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest"
import * as qwik from "../src/index.js"
import * as wrapper from "../src/server-functions.js"
import { ada, ORIGIN, testConfig } from "./harness/config.js"
import { fakeEvent } from "./harness/fake-event.js"
import { handle, outcome, setup, signInThroughRoute } from "./harness/setup.js"

type Name = keyof ServerFunctions
const names = Object.keys(serverFunctions).sort() as Name[]
const exported = qwik as unknown as Record<string, (ev: RequestEventCommon, ...args: unknown[]) => Promise<unknown>>

/** Each function's own arguments, as an app would pass them: each name of core's map must have an entry. */
const ARGS: { [K in Name]: Parameters<ServerFunctions[K]> extends [Request, unknown, ...infer A] ? A : never } = {
  listPasskeys: [],
  renamePasskey: [{ id: "passkey-1", name: "Laptop" }],
  deletePasskey: [{ id: "passkey-1" }],
  getAccessToken: ["idp"],
  listSessions: [],
  revokeSession: [{ id: "session-1" }],
  revokeOtherSessions: [],
  signOutEverywhere: [],
  listLinkedAccounts: [],
  listSignInMethods: [],
  unlinkLinkedAccount: [{ provider: "idp" }],
  getTwoFactorStatus: [],
  startTotpEnrollment: [],
  confirmTotpEnrollment: [{ code: "123456" }],
  disableTwoFactorSignIn: [{ code: "123456" }],
  regenerateTwoFactorBackupCodes: [{ code: "123456" }],
  requireRecentAuthentication: [{ maxAge: 60 }],
  getPendingTwoFactor: [],
  completeTwoFactorSignIn: [{ code: "123456" }],
  completeTwoFactorSignInWithPasskey: [{ data: {} }],
  stepUpTwoFactor: [{ code: "123456" }],
  createOrganization: [{ name: "Acme" }],
  listOrganizations: [],
  getOrganization: ["00000000-0000-4000-8000-000000000000"],
  updateOrganization: ["00000000-0000-4000-8000-000000000000", { name: "Acme 2" }],
  deleteOrganization: ["00000000-0000-4000-8000-000000000000"],
  inviteMember: ["00000000-0000-4000-8000-000000000000", { email: "bob@example.test", role: "member" }],
  listInvitations: ["00000000-0000-4000-8000-000000000000"],
  revokeInvitation: ["00000000-0000-4000-8000-000000000000"],
  acceptInvitation: ["A".repeat(43)],
  listMembers: ["00000000-0000-4000-8000-000000000000"],
  updateMemberRole: ["00000000-0000-4000-8000-000000000000", "user-bob", "admin"],
  removeMember: ["00000000-0000-4000-8000-000000000000", "user-bob"],
  leaveOrganization: ["00000000-0000-4000-8000-000000000000"],
  setActiveOrganization: [null],
  hasPermission: ["00000000-0000-4000-8000-000000000000", "member:invite"],
  requirePermission: ["00000000-0000-4000-8000-000000000000", "member:invite"],
  createSsoConnection: ["00000000-0000-4000-8000-000000000000", { type: "saml", entryPoint: "https://idp.example/sso", idpCertificate: "x", idpEntityId: "https://idp.example" }],
  listSsoConnections: ["00000000-0000-4000-8000-000000000000"],
  updateSsoConnection: ["sso_1", { defaultRole: "member" }],
  deleteSsoConnection: ["sso_1"],
  addSsoDomain: ["sso_1", "acme.test"],
  verifySsoDomain: ["sso_1", "acme.test"],
}

/** What a call came to: the value, or the thrown error's class, type, code and message. */
async function settled(run: Promise<unknown>): Promise<unknown> {
  const result = await outcome(run)
  if (!(result instanceof Error)) return { value: result }
  const { type, code } = result as Error & { type?: string; code?: string }
  return { error: result.constructor.name, type, code, message: result.message }
}

describe("every server function of core, through the one wrapper", () => {
  it("@authlib/qwik exports each function of core's map by its name, made by forQwik for that name, and the wrapper module nothing else", async () => {
    const wrapped = Object.keys(wrapper).filter((name) => name !== "forQwik").sort()
    expect(wrapped).toEqual(names)
    expect(names).toHaveLength(43)
    for (const name of names) {
      expect([name, exported[name]]).toEqual([name, (wrapper as Record<string, unknown>)[name]])
      // The wrapper names the function it wraps when the plugin's onRequest did not run.
      const refused = await outcome(exported[name]!(fakeEvent(`${ORIGIN}/account/`)))
      expect([name, (refused as Error).message]).toEqual([name, `${name}() found no authlib configuration for this request: export onRequest from QwikAuth$ in src/routes/plugin@auth.ts`])
    }
  })

  it("each resolves, or throws, exactly what core's own function does for the same request (no session)", async () => {
    const config = testConfig()
    const { auth } = setup(config)
    for (const name of names) {
      const ev = fakeEvent(`${ORIGIN}/account/`)
      await handle(auth, ev)
      const core = serverFunctions[name] as unknown as (request: Request, config: unknown, ...args: unknown[]) => Promise<unknown>
      const direct = await settled(core(new Request(`${ORIGIN}/auth/session`), config, ...ARGS[name]))
      const through = await settled(exported[name]!(ev, ...ARGS[name]))
      expect([name, through]).toEqual([name, direct])
      expect([name, ev.recorded.cookies]).toEqual([name, []])
    }
  })

  it("a typed error core throws reaches the caller as thrown: the binding's class, its type, code and message", async () => {
    const { auth } = setup(testConfig({ session: { strategy: "jwt" }, adapter: { listAccountsByUserId: async () => [], unlinkAccount: async () => undefined } }))
    const { cookie } = await signInThroughRoute(auth)
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie })
    await handle(auth, ev)
    const err = await outcome(qwik.unlinkLinkedAccount(ev, { provider: "idp" }))
    expect(err).toBeInstanceOf(qwik.AccountManagementError)
    expect(err).toMatchObject({ type: "AccountManagementError", code: "ACCOUNT_UNKNOWN", message: "No such linked account" })
    const jwt = await outcome(qwik.revokeOtherSessions(ev))
    expect(jwt).toBeInstanceOf(qwik.SessionManagementError)
    expect(jwt).toMatchObject({ type: "SessionManagementError", code: "REVOCATION_UNAVAILABLE" })
  })
})

describe("cookies core answers with an error", () => {
  afterEach(() => void vi.unstubAllGlobals())

  it("a refused refresh token (INVALID_GRANT) marks the JWT session: the re-issued cookie is set before RefreshTokenError reaches the caller, and a later read sees the mark", async () => {
    const account: AdapterAccount = { userId: ada.id, type: "oauth", provider: "idp", providerAccountId: "ada-at-idp", access_token: "expired", token_type: "bearer", expires_at: 1, refresh_token: "spent" }
    const adapter = {
      listAccountsByUserId: async (userId: string) => (userId === ada.id ? [{ ...account }] : []),
      getAccount: async () => ({ ...account }),
      updateAccount: async (patch: Partial<AdapterAccount>, expected?: { refresh_token: string | null }) => {
        if (expected && (account.refresh_token ?? null) !== expected.refresh_token) return null
        Object.assign(account, patch)
        return { ...account }
      },
    }
    const { auth } = setup(testConfig({ session: { strategy: "jwt" }, adapter }))
    const { cookie } = await signInThroughRoute(auth)
    // The provider's token endpoint refuses the refresh token, as a provider does for a spent one.
    const answer = () => new Response(JSON.stringify({ error: "invalid_grant", error_description: "spent" }), { status: 400, headers: { "content-type": "application/json" } })
    vi.stubGlobal("fetch", vi.fn(async (input: RequestInfo | URL) => (String(input instanceof Request ? input.url : input) === "https://idp.test/token" ? answer() : new Response(null, { status: 404 }))))
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie })
    await handle(auth, ev)
    const err = await outcome(qwik.getAccessToken(ev, "idp"))
    expect(err).toBeInstanceOf(qwik.RefreshTokenError)
    expect(err).toMatchObject({ type: "RefreshTokenError", code: "INVALID_GRANT" })
    expect(ev.recorded.cookies.map((c) => c.name)).toEqual(["authlib.session-token"])
    expect((await qwik.getSession(ev)).data).toMatchObject({ user: { email: ada.email }, error: "RefreshTokenError" })
  })
})

describe("the exported types", () => {
  it("are those of the hand-written functions the wrapper replaced", () => {
    type Ev = RequestEventCommon
    expectTypeOf(qwik.listPasskeys).toEqualTypeOf<(ev: Ev) => Promise<PasskeyInfo[]>>()
    expectTypeOf(qwik.renamePasskey).toEqualTypeOf<(ev: Ev, input: { id: string; name: string }) => Promise<PasskeyInfo>>()
    expectTypeOf(qwik.deletePasskey).toEqualTypeOf<(ev: Ev, input: { id: string }) => Promise<PasskeyInfo>>()
    expectTypeOf(qwik.getAccessToken).toEqualTypeOf<(ev: Ev, providerId: string, options?: GetAccessTokenOptions) => Promise<ProviderAccessToken>>()
    expectTypeOf(qwik.listSessions).toEqualTypeOf<(ev: Ev) => Promise<SessionInfo[]>>()
    expectTypeOf(qwik.revokeSession).toEqualTypeOf<(ev: Ev, input: { id: string }) => Promise<void>>()
    expectTypeOf(qwik.revokeOtherSessions).toEqualTypeOf<(ev: Ev) => Promise<number | null>>()
    expectTypeOf(qwik.signOutEverywhere).toEqualTypeOf<(ev: Ev) => Promise<number | null>>()
    expectTypeOf(qwik.listLinkedAccounts).toEqualTypeOf<(ev: Ev) => Promise<LinkedAccount[]>>()
    expectTypeOf(qwik.listSignInMethods).toEqualTypeOf<(ev: Ev) => Promise<SignInMethod[]>>()
    expectTypeOf(qwik.unlinkLinkedAccount).toEqualTypeOf<(ev: Ev, input: { provider: string }) => Promise<LinkedAccount>>()
    expectTypeOf(qwik.getTwoFactorStatus).toEqualTypeOf<(ev: Ev) => Promise<TwoFactorStatus>>()
    expectTypeOf(qwik.startTotpEnrollment).toEqualTypeOf<(ev: Ev) => Promise<TotpEnrollment & { qrSvg: string }>>()
    expectTypeOf(qwik.confirmTotpEnrollment).toEqualTypeOf<(ev: Ev, input: { code: string }) => Promise<{ enabled: true; backupCodes: string[] }>>()
    expectTypeOf(qwik.disableTwoFactorSignIn).toEqualTypeOf<(ev: Ev, input: { code: string }) => Promise<{ enabled: false }>>()
    expectTypeOf(qwik.regenerateTwoFactorBackupCodes).toEqualTypeOf<(ev: Ev, input: { code: string }) => Promise<{ backupCodes: string[] }>>()
    expectTypeOf(qwik.requireRecentAuthentication).toEqualTypeOf<(ev: Ev, wanted?: RecentAuthentication) => Promise<AuthenticationInfo>>()
    expectTypeOf(qwik.getPendingTwoFactor).toEqualTypeOf<(ev: Ev) => Promise<PendingTwoFactorInfo | null>>()
    expectTypeOf(qwik.completeTwoFactorSignIn).toEqualTypeOf<(ev: Ev, input: { code: string }) => Promise<void>>()
    expectTypeOf(qwik.completeTwoFactorSignInWithPasskey).toEqualTypeOf<(ev: Ev, input: { data: unknown; provider?: string }) => Promise<void>>()
    expectTypeOf(qwik.stepUpTwoFactor).toEqualTypeOf<(ev: Ev, input: { code: string } | { data: unknown; provider?: string }) => Promise<StepUpResult>>()
    expectTypeOf(qwik.createOrganization).toEqualTypeOf<(ev: Ev, input: { name: string; slug?: string }) => Promise<Organization>>()
    expectTypeOf(qwik.listOrganizations).toEqualTypeOf<(ev: Ev) => Promise<OrganizationWithRole[]>>()
    expectTypeOf(qwik.updateMemberRole).toEqualTypeOf<(ev: Ev, organizationId: string, userId: string, role: string) => Promise<OrganizationMembership>>()
    expectTypeOf(qwik.setActiveOrganization).toEqualTypeOf<(ev: Ev, organizationId: string | null) => Promise<ActiveOrganization | null>>()
    expectTypeOf(qwik.hasPermission).toEqualTypeOf<(ev: Ev, organizationId: string, permission: string) => Promise<boolean>>()
  })
})
