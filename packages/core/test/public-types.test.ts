/**
 * The public types users write configs and adapters against. `expectTypeOf` assertions fail the
 * package's typecheck (part of `pnpm test`) when a type regresses; the runtime assertions pin the
 * values behind them.
 */
import { describe, expect, expectTypeOf, it } from "vitest"
import {
  allowInsecureOAuthRequests,
  EmailSignInError,
  InvalidEmailAddress,
  type AdapterUser,
  type AnyAuthError,
  type EmailUserConfig,
  type OAuth2Config,
  type OAuthProviderId,
  type UserinfoEndpointHandler,
} from "../src/index.js"

describe("public types", () => {
  it("EmailUserConfig keeps every e-mail field typed and still takes extras", () => {
    expectTypeOf<EmailUserConfig["maxAge"]>().toEqualTypeOf<number | undefined>()
    expectTypeOf<EmailUserConfig["from"]>().toEqualTypeOf<string | undefined>()
    expectTypeOf<EmailUserConfig["normalizeIdentifier"]>().toEqualTypeOf<((identifier: string) => string) | undefined>()
    const options: EmailUserConfig = { maxAge: 60, from: "auth@example.com", transportExtra: true }
    expect(options.maxAge).toBe(60)
  })

  it("a userinfo handler returns the provider's own profile type", () => {
    interface NumericProfile { id: number; login: string }
    const userinfo: UserinfoEndpointHandler<NumericProfile> = { request: () => ({ id: 42, login: "octocat" }) }
    const provider: OAuth2Config<NumericProfile> = {
      id: "numeric", name: "Numeric", type: "oauth", userinfo,
      profile: (p) => ({ id: String(p.id), name: p.login }),
    }
    expectTypeOf(provider.profile!).parameter(0).toEqualTypeOf<NumericProfile>()
    expect(provider.userinfo).toBe(userinfo)
  })

  it("OAuthProviderId names the presets and accepts any custom id", () => {
    expectTypeOf<"github">().toExtend<OAuthProviderId>()
    expectTypeOf<"microsoft-entra-id">().toExtend<OAuthProviderId>()
    const custom: OAuthProviderId = "corporate-sso"
    expect(custom).toBe("corporate-sso")
  })

  it("a stored user may have no e-mail address", () => {
    expectTypeOf<AdapterUser["email"]>().toEqualTypeOf<string | null>()
    const user: AdapterUser = { id: "u1", email: null, emailVerified: null }
    expect(user.email).toBeNull()
  })

  it("AnyAuthError discriminates the e-mail errors by type", () => {
    const err: AnyAuthError = new InvalidEmailAddress("Enter one address", { code: "EMAIL_SEVERAL_ADDRESSES" })
    if (err.type === "InvalidEmailAddress") expectTypeOf(err).toEqualTypeOf<InvalidEmailAddress>()
    expect(err.type).toBe("InvalidEmailAddress")
    expect(new EmailSignInError("x", { code: "SEND_FAILED" }).type).toBe("EmailSignInError")
  })

  it("the insecure-requests marker is exported from the root and is the registered symbol", () => {
    expect(allowInsecureOAuthRequests).toBe(Symbol.for("authlib.allow-insecure-oauth-requests"))
    expectTypeOf(allowInsecureOAuthRequests).toBeSymbol()
  })
})
