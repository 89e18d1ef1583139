/**
 * The default `profile` and `account` callbacks and the token set normalisation (spec 2.3, 2.5).
 */
import { describe, expect, it } from "vitest"
import { buildSignIn, defaultAccount, defaultProfile, normalizeTokens } from "../../../src/capabilities/oauth/profile.js"
import type { OAuthConfig } from "../../../src/index.js"

const provider = { id: "acme", name: "Acme", type: "oauth" } as OAuthConfig

describe("token set", () => {
  it("lower-cases token_type and computes expires_at from expires_in", () => {
    const now = Date.UTC(2030, 0, 1)
    const tokens = normalizeTokens({ access_token: "a", token_type: "Bearer", expires_in: 3600 }, now)
    expect(tokens.token_type).toBe("bearer")
    expect(tokens.expires_at).toBe(now / 1000 + 3600)
  })

  it("keeps an expires_at the provider sent, and accepts expires_in as a numeric string", () => {
    expect(normalizeTokens({ expires_in: 10, expires_at: 5 }).expires_at).toBe(5)
    expect(normalizeTokens({ expires_in: "60" }, 1000_000).expires_at).toBe(1000 + 60)
    expect(normalizeTokens({ expires_in: "soon" }).expires_at).toBeUndefined()
  })

  it("the default account keeps access_token, id_token, refresh_token, expires_at, scope, token_type, session_state only", () => {
    const tokens = { access_token: "a", id_token: "i", refresh_token: "r", expires_at: 1, scope: "s", token_type: "bearer", session_state: "x", expires_in: 9, extra: "no" }
    expect(defaultAccount(tokens)).toEqual({ access_token: "a", id_token: "i", refresh_token: "r", expires_at: 1, scope: "s", token_type: "bearer", session_state: "x" })
  })
})

describe("profile", () => {
  it("the default profile keeps id (sub, else id), name, email and image", () => {
    expect(defaultProfile({ sub: "s1", name: "N", email: "e@x", picture: "p", locale: "fr" })).toEqual({ id: "s1", name: "N", email: "e@x", image: "p", emailVerified: null })
    expect(defaultProfile({ id: 42 as unknown as string, login: "octo", preferred_username: "octo" })).toEqual({ id: "42", name: "octo", email: null, image: null, emailVerified: null })
  })

  it("the default profile marks the address verified only for email_verified: true (the boolean)", () => {
    expect(defaultProfile({ sub: "s", email: "e@x", email_verified: true }).emailVerified).toBeInstanceOf(Date)
    for (const claim of [false, null, undefined, "true", 1]) expect(defaultProfile({ sub: "s", email: "e@x", email_verified: claim as boolean }).emailVerified).toBeNull()
    expect(defaultProfile({ sub: "s", email_verified: true }).emailVerified).toBeNull()
  })

  it("a custom profile callback: its emailVerified decides; left out, email_verified: true for the same address does", async () => {
    const tokens = { access_token: "a", token_type: "bearer" }
    const leftOut = { ...provider, profile: (p: any) => ({ id: p.sub, email: p.email }) } as OAuthConfig
    expect((await buildSignIn(leftOut, { sub: "1", email: "A@x.example", email_verified: true }, tokens)).user.emailVerified).toBeInstanceOf(Date)
    expect((await buildSignIn(leftOut, { sub: "1", email: "a@x.example" }, tokens)).user.emailVerified).toBeNull()
    const other = { ...provider, profile: (p: any) => ({ id: p.sub, email: "someone-else@x.example" }) } as OAuthConfig
    expect((await buildSignIn(other, { sub: "1", email: "a@x.example", email_verified: true }, tokens)).user.emailVerified).toBeNull()
    const says = (emailVerified: unknown) => ({ ...provider, profile: (p: any) => ({ id: p.sub, email: p.email, emailVerified }) }) as OAuthConfig
    expect((await buildSignIn(says(null), { sub: "1", email: "a@x.example", email_verified: true }, tokens)).user.emailVerified).toBeNull()
    expect((await buildSignIn(says(true), { sub: "1", email: "a@x.example" }, tokens)).user.emailVerified).toBeNull()
    expect((await buildSignIn(says(new Date("nope")), { sub: "1", email: "a@x.example" }, tokens)).user.emailVerified).toBeNull()
    const at = new Date(Date.UTC(2030, 0, 1))
    expect((await buildSignIn(says(at), { sub: "1", email: "a@x.example" }, tokens)).user.emailVerified).toEqual(at)
    expect((await buildSignIn({ ...says(at), profile: () => ({ id: "1", email: null, emailVerified: at }) } as OAuthConfig, { sub: "1" }, tokens)).user.emailVerified).toBeNull()
  })

  it("builds the account from the profile id, lower-cases the e-mail and runs custom callbacks", async () => {
    const custom = {
      ...provider,
      profile: (p: any) => ({ id: p.uid, email: p.mail, name: p.display }),
      account: (t: any) => ({ access_token: t.access_token, token_type: t.token_type }),
    } as OAuthConfig
    const out = await buildSignIn(custom, { uid: 7, mail: "Mixed@Case.Example", display: "D" }, { access_token: "a", token_type: "Bearer", refresh_token: "r" })
    expect(out.user).toEqual({ id: "7", email: "mixed@case.example", name: "D", emailVerified: null })
    expect(out.account).toEqual({ access_token: "a", token_type: "bearer", provider: "acme", type: "oauth", providerAccountId: "7" })
  })

  it("refuses a profile without an id: there would be no providerAccountId", async () => {
    await expect(buildSignIn(provider, { email: "x@y" }, { access_token: "a", token_type: "bearer" })).rejects.toMatchObject({
      type: "OAuthProfileParseError",
      code: "PROFILE_ID_MISSING",
    })
  })
})
