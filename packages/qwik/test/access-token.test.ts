/**
 * `getAccessToken(ev, providerId)` through the binding against the real core: the signed-in user's
 * stored provider token for the request as core sees it; `SessionRequired` without a session.
 */
import type { AdapterAccount } from "@authlib/core"
import { describe, expect, it } from "vitest"
import { getAccessToken, RefreshTokenError, SessionRequired } from "../src/index.js"
import { ada, ORIGIN, testConfig } from "./harness/config.js"
import { fakeEvent } from "./harness/fake-event.js"
import { handle, setup, signInThroughRoute } from "./harness/setup.js"

const account: AdapterAccount = {
  userId: ada.id, type: "oauth", provider: "idp", providerAccountId: "ada-at-idp",
  access_token: "idp-access-token", token_type: "bearer", expires_at: Math.floor(Date.now() / 1000) + 3600, refresh_token: "idp-refresh",
}

function withAccounts(accounts: AdapterAccount[]) {
  return setup(testConfig({
    session: { strategy: "jwt" },
    adapter: {
      listAccountsByUserId: async (userId) => accounts.filter((a) => a.userId === userId),
      getAccount: async (id, provider) => accounts.find((a) => a.providerAccountId === id && a.provider === provider) ?? null,
      updateAccount: async () => null,
    },
  }))
}

describe("getAccessToken through the binding", () => {
  it("answers the signed-in user's stored token while it is fresh", async () => {
    const { auth } = withAccounts([account])
    const { cookie } = await signInThroughRoute(auth)
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie })
    await handle(auth, ev)
    expect(await getAccessToken(ev, "idp")).toEqual({ accessToken: "idp-access-token", expiresAt: account.expires_at, tokenType: "bearer", scope: undefined })
  })

  it("throws SessionRequired without a session, RefreshTokenError for a provider the user never linked", async () => {
    const { auth } = withAccounts([])
    const anonymous = fakeEvent(`${ORIGIN}/account/`)
    await handle(auth, anonymous)
    expect(await getAccessToken(anonymous, "idp").catch((e: unknown) => e)).toBeInstanceOf(SessionRequired)
    const { cookie } = await signInThroughRoute(auth)
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie })
    await handle(auth, ev)
    const err = await getAccessToken(ev, "idp").catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RefreshTokenError)
    expect(err).toMatchObject({ code: "ACCOUNT_NOT_LINKED" })
  })
})
