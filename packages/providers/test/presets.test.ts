import { describe, expect, it } from "vitest"
import Apple from "../src/apple.js"
import Auth0 from "../src/auth0.js"
import Discord, { discordAvatarUrl } from "../src/discord.js"
import Facebook from "../src/facebook.js"
import GitHub, { githubEmail } from "../src/github.js"
import GitLab from "../src/gitlab.js"
import Google from "../src/google.js"
import Keycloak from "../src/keycloak.js"
import LinkedIn from "../src/linkedin.js"
import MicrosoftEntraID, { entraIssuer } from "../src/microsoft-entra-id.js"
import OIDC from "../src/oidc.js"
import Okta from "../src/okta.js"
import Slack from "../src/slack.js"
import Twitch, { conformTwitchToken, TWITCH_CLAIMS } from "../src/twitch.js"
import { InvalidProviderOptions } from "../src/errors.js"

type AnyConfig = Record<string, any>
const tokens = { access_token: "at", token_type: "bearer" }
const map = (config: AnyConfig, profile: unknown) => config.profile(profile, tokens)
const params = (config: AnyConfig) => config.authorization?.params ?? {}

/** Every preset, called without options (clientId/secret then come from env through core). */
const presets: Array<[string, (options?: any) => AnyConfig, "oauth" | "oidc"]> = [
  ["github", GitHub, "oauth"],
  ["google", Google, "oidc"],
  ["gitlab", GitLab, "oauth"],
  ["discord", Discord, "oauth"],
  ["microsoft-entra-id", MicrosoftEntraID, "oidc"],
  ["apple", Apple, "oidc"],
  ["auth0", Auth0, "oidc"],
  ["keycloak", Keycloak, "oidc"],
  ["okta", Okta, "oidc"],
  ["twitch", Twitch, "oidc"],
  ["slack", Slack, "oidc"],
  ["linkedin", LinkedIn, "oidc"],
  ["facebook", Facebook, "oauth"],
  ["oidc", OIDC, "oidc"],
]

describe("every preset", () => {
  it.each(presets)("%s: id, type, checks, style, and no credentials of its own", (id, make, type) => {
    const config = make()
    expect(config.id).toBe(id)
    expect(config.type).toBe(type)
    expect(typeof config.name).toBe("string")
    expect(config.name.length).toBeGreaterThan(0)
    expect(config.checks.length).toBeGreaterThan(0)
    expect(config.checks).not.toContain("none")
    if (type === "oauth") expect(config.checks).not.toContain("nonce")
    // Left unset so setEnvDefaults can fill AUTH_<ID>_ID / AUTH_<ID>_SECRET.
    expect(config.clientId).toBeUndefined()
    expect(config.clientSecret).toBeUndefined()
    expect(typeof config.profile).toBe("function")
    if (id !== "oidc") expect(config.style.brandColor).toMatch(/^#[0-9a-f]{6}$/i)
    expect(config.options).toEqual({})
  })

  it.each(presets.filter(([, , t]) => t === "oauth"))("%s: OAuth endpoints are absolute https URLs", (_id, make) => {
    const config = make()
    const urls = [config.authorization.url, config.token, typeof config.userinfo === "string" ? config.userinfo : config.userinfo.url]
    for (const url of urls) expect(new URL(url).protocol).toBe("https:")
  })

  it.each(presets.filter(([, , t]) => t === "oidc"))("%s: OIDC asks for openid (or Apple's name email) and uses discovery", (id, make) => {
    const config = make()
    const scope: string = params(config).scope
    if (id === "apple") expect(scope).toBe("name email")
    else expect(scope.split(" ")).toContain("openid")
    if (config.wellKnown) expect(config.wellKnown).toBe(`${config.issuer}/.well-known/openid-configuration`)
  })

  it.each(presets)("%s: user options win over the preset and are kept as `options`", (_id, make) => {
    const options = { id: "custom", name: "Custom", clientId: "cid", clientSecret: "sec", issuer: "https://op.example.com", checks: ["state"], style: { brandColor: "#123456" } }
    const config = make(options)
    expect(config).toMatchObject({ id: "custom", name: "Custom", clientId: "cid", clientSecret: "sec", issuer: "https://op.example.com", checks: ["state"] })
    expect(config.style.brandColor).toBe("#123456")
    expect(config.options).toBe(options)
  })
})

describe("user options override the preset", () => {
  it("merges authorization params key by key and keeps the preset's scope", () => {
    const options = { clientId: "id", authorization: { params: { prompt: "consent" } } }
    const config = Google(options) as AnyConfig
    expect(config.clientId).toBe("id")
    expect(params(config)).toEqual({ scope: "openid email profile", prompt: "consent" })
    expect(config.options).toBe(options)
  })

  it("replaces scope, checks (arrays are not merged), profile and style.brandColor", () => {
    const profile = () => ({ id: "x" })
    const config = GitHub({ authorization: { params: { scope: "read:user" } }, checks: ["state"], profile, style: { brandColor: "#000000" } }) as AnyConfig
    expect(params(config).scope).toBe("read:user")
    expect(config.checks).toEqual(["state"])
    expect(config.profile).toBe(profile)
    expect(config.style).toEqual({ brandColor: "#000000" })
    expect(config.authorization.url).toBe("https://github.com/login/oauth/authorize")
  })

  it("keeps preset values for options given as undefined, so env can still fill them", () => {
    const config = Keycloak({ issuer: undefined, clientId: undefined }) as AnyConfig
    expect("issuer" in config).toBe(false)
    expect("clientId" in config).toBe(false)
  })

  it("carries symbol-keyed markers of the user's options (such as core's allow-insecure-requests marker)", () => {
    const marker = Symbol.for("authlib.allow-insecure-oauth-requests")
    const config = Google({ [marker]: true }) as AnyConfig
    expect(config[marker as unknown as string]).toBe(true)
  })

  it("cannot change the type of a preset", () => {
    const config = GitHub({ type: "oidc" } as never) as AnyConfig
    expect(config.type).toBe("oauth")
  })

  it("never writes to the user's options object", () => {
    const options = Object.freeze({ authorization: Object.freeze({ params: Object.freeze({ prompt: "login" }) }) })
    expect(() => Google(options as never)).not.toThrow()
    expect(options.authorization.params).toEqual({ prompt: "login" })
  })

  it("ignores a __proto__ key in JSON-parsed options", () => {
    const config = Okta(JSON.parse('{"__proto__": {"polluted": true}, "issuer": "https://org.okta.com"}')) as AnyConfig
    expect(config.issuer).toBe("https://org.okta.com")
    expect(({} as AnyConfig).polluted).toBeUndefined()
    expect(config.polluted).toBeUndefined()
  })
})

describe("GitHub", () => {
  it("asks for read:user user:email and maps the numeric id to a string", async () => {
    const config = GitHub() as AnyConfig
    expect(params(config).scope).toBe("read:user user:email")
    expect(config.issuer).toBe("https://github.com/login/oauth")
    expect(config.token).toBe("https://github.com/login/oauth/access_token")
    expect(config.userinfo.url).toBe("https://api.github.com/user")
    const user = await map(config, { id: 583231, login: "octocat", name: null, email: null, avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4" })
    expect(user).toEqual({ id: "583231", name: "octocat", email: null, image: "https://avatars.githubusercontent.com/u/583231?v=4" , emailVerified: null })
  })

  it("points every endpoint at a GitHub Enterprise Server", () => {
    const config = GitHub({ enterprise: { baseUrl: "https://github.example.com/" } }) as AnyConfig
    expect(config.authorization.url).toBe("https://github.example.com/login/oauth/authorize")
    expect(config.token).toBe("https://github.example.com/login/oauth/access_token")
    expect(config.userinfo.url).toBe("https://github.example.com/api/v3/user")
  })
})

describe("Google", () => {
  const sample = { iss: "https://accounts.google.com", sub: "110169484474386276334", email: "jane@example.com", email_verified: true, name: "Jane Doe", picture: "https://lh3.googleusercontent.com/a/x", given_name: "Jane", hd: "example.com" }
  it("is OIDC on accounts.google.com with PKCE, state and nonce", () => {
    const config = Google() as AnyConfig
    expect(config.issuer).toBe("https://accounts.google.com")
    expect(config.checks).toEqual(["pkce", "state", "nonce"])
  })
  it("maps the ID token claims, dropping an unverified address", async () => {
    expect(await map(Google(), sample)).toEqual({ id: sample.sub, name: "Jane Doe", email: "jane@example.com", image: sample.picture , emailVerified: expect.any(Date) })
    expect((await map(Google(), { ...sample, email_verified: false })).email).toBeNull()
  })
})

describe("GitLab", () => {
  it("maps /api/v4/user and supports a self-managed instance", async () => {
    const config = GitLab({ baseUrl: "https://gitlab.example.com/" }) as AnyConfig
    expect(config.authorization.url).toBe("https://gitlab.example.com/oauth/authorize")
    expect(params(config).scope).toBe("read_user")
    expect(config.token).toBe("https://gitlab.example.com/oauth/token")
    expect(config.userinfo).toBe("https://gitlab.example.com/api/v4/user")
    const user = await map(config, { id: 1, username: "john_smith", name: "", email: "john@example.com", avatar_url: null, state: "active" })
    expect(user).toEqual({ id: "1", name: "john_smith", email: "john@example.com", image: null , emailVerified: null })
  })
})

describe("Discord", () => {
  const base = { id: "80351110224678912", username: "nelly", discriminator: "0", global_name: "Nelly", avatar: "8342729096ea3675442027381ff50dfe", email: "nelly@discord.com", verified: true }
  it("uses the discord.com endpoints with scope identify email", () => {
    const config = Discord() as AnyConfig
    expect(config.authorization.url).toBe("https://discord.com/oauth2/authorize")
    expect(params(config).scope).toBe("identify email")
    expect(config.userinfo).toBe("https://discord.com/api/users/@me")
  })
  it("builds avatar URLs: png, animated gif, and default avatars for new and legacy usernames", () => {
    expect(discordAvatarUrl(base)).toBe(`https://cdn.discordapp.com/avatars/${base.id}/${base.avatar}.png`)
    expect(discordAvatarUrl({ ...base, avatar: "a_1269e74af4df7417b13759eae50c83dc" })).toMatch(/\/a_1269e74af4df7417b13759eae50c83dc\.gif$/)
    // (80351110224678912 >> 22) % 6 = 19157197529 % 6 = 5
    expect(discordAvatarUrl({ ...base, avatar: null })).toBe("https://cdn.discordapp.com/embed/avatars/5.png")
    expect(discordAvatarUrl({ ...base, avatar: null, discriminator: "1337" })).toBe("https://cdn.discordapp.com/embed/avatars/2.png")
  })
  it("maps the profile, preferring the display name and dropping an unverified address", async () => {
    expect(await map(Discord(), base)).toEqual({ id: base.id, name: "Nelly", email: base.email, image: discordAvatarUrl(base) , emailVerified: expect.any(Date) })
    const unverified = await map(Discord(), { ...base, global_name: null, verified: false })
    expect(unverified).toMatchObject({ name: "nelly", email: null })
  })
})

describe("Microsoft Entra ID", () => {
  it("builds the tenant issuer from tenantId and keeps tenantId out of the config", () => {
    const config = MicrosoftEntraID({ tenantId: "6b1c3c5e-91fb-4c1b-9e0e-2c0f1b1a8a55" }) as AnyConfig
    expect(config.issuer).toBe("https://login.microsoftonline.com/6b1c3c5e-91fb-4c1b-9e0e-2c0f1b1a8a55/v2.0")
    expect(config.tenantId).toBeUndefined()
    expect(config.options).toEqual({ tenantId: "6b1c3c5e-91fb-4c1b-9e0e-2c0f1b1a8a55" })
    expect(MicrosoftEntraID({ tenantId: "common" }).issuer).toBe("https://login.microsoftonline.com/common/v2.0")
    expect(entraIssuer()).toBe("https://login.microsoftonline.com/common/v2.0")
  })
  it("lets an explicit issuer win, and leaves the issuer to AUTH_MICROSOFT_ENTRA_ID_ISSUER when neither is given", () => {
    const issuer = "https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0"
    expect(MicrosoftEntraID({ issuer, tenantId: "other" }).issuer).toBe(issuer)
    expect("issuer" in MicrosoftEntraID()).toBe(false)
  })
  it("refuses a tenantId that would change the issuer's path", () => {
    expect(() => MicrosoftEntraID({ tenantId: "common/../evil" })).toThrow(InvalidProviderOptions)
  })
  it("maps the claims with a null image (the photo needs Microsoft Graph)", async () => {
    const claims = { sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", oid: "00000000-0000-0000-66f3-3332eca7ea81", tid: "9122040d-6c67-4c5b-b112-36a304b66dad", name: "Megan Bowen", email: "megan@contoso.com", preferred_username: "megan@contoso.com" }
    expect(await map(MicrosoftEntraID(), claims)).toEqual({ id: claims.sub, name: "Megan Bowen", email: "megan@contoso.com", image: null , emailVerified: null })
  })
})

describe("Apple", () => {
  it("answers with form_post, asks for name email, checks nonce and state, posts the client secret", () => {
    const config = Apple() as AnyConfig
    expect(config.issuer).toBe("https://appleid.apple.com")
    expect(params(config)).toEqual({ scope: "name email", response_mode: "form_post" })
    expect(config.checks).toEqual(["nonce", "state"])
    expect(config.client.token_endpoint_auth_method).toBe("client_secret_post")
  })
  it("takes the name from the first sign-in's user field, else the address; string booleans count", async () => {
    const claims = { sub: "001234.abcdef0123456789.0123", email: "x1y2z3@privaterelay.appleid.com", email_verified: "true", is_private_email: "true" }
    expect(await map(Apple(), claims)).toEqual({ id: claims.sub, name: claims.email, email: claims.email, image: null , emailVerified: expect.any(Date) })
    const first = await map(Apple(), { ...claims, user: { name: { firstName: "Jane", lastName: "Appleseed" } } })
    expect(first.name).toBe("Jane Appleseed")
    // The form field is unsigned: its e-mail is never used, and non-string name parts are ignored.
    const forged = await map(Apple(), { ...claims, user: { name: { firstName: { toString: "x" }, lastName: "Doe" }, email: "victim@example.com" } })
    expect(forged).toMatchObject({ name: "Doe", email: claims.email })
    expect((await map(Apple(), { ...claims, email_verified: "false" })).email).toBeNull()
  })
})

describe("issuer from the options: Auth0, Keycloak, Okta", () => {
  const claims = { sub: "auth0|5f7c8ec7c33c6c004bbafe82", nickname: "jdoe", name: "Jane Doe", preferred_username: "jdoe", email: "jane@example.com", email_verified: true, picture: "https://s.gravatar.com/avatar/x.png" }
  it.each([
    ["auth0", Auth0, "https://tenant.eu.auth0.com/"],
    ["keycloak", Keycloak, "https://kc.example.com/realms/main"],
    ["okta", Okta, "https://org.okta.com/oauth2/default"],
  ] as const)("%s takes its issuer from the options and maps standard claims", async (_id, make, issuer) => {
    const config = make({ issuer }) as AnyConfig
    expect(config.issuer).toBe(issuer)
    expect("issuer" in make()).toBe(false)
    expect(config.checks).toEqual(["pkce", "state", "nonce"])
    expect(await map(config, claims)).toEqual({ id: claims.sub, name: "Jane Doe", email: claims.email, image: claims.picture , emailVerified: expect.any(Date) })
    expect((await map(config, { ...claims, email_verified: false })).email).toBeNull()
  })
})

describe("Twitch", () => {
  it("asks for the e-mail and picture claims through the claims parameter", () => {
    const config = Twitch() as AnyConfig
    expect(config.issuer).toBe("https://id.twitch.tv/oauth2")
    expect(params(config).scope).toBe("openid user:read:email")
    expect(JSON.parse(params(config).claims)).toEqual(JSON.parse(TWITCH_CLAIMS))
    expect(Object.keys(JSON.parse(TWITCH_CLAIMS).id_token)).toEqual(expect.arrayContaining(["email", "picture"]))
    expect(config.client.token_endpoint_auth_method).toBe("client_secret_post")
  })
  it("turns the token response's scope array into a string and leaves other responses alone", async () => {
    const fixed = await conformTwitchToken(Response.json({ access_token: "a", scope: ["openid", "user:read:email"], token_type: "bearer" }))
    expect(await fixed!.json()).toMatchObject({ access_token: "a", scope: "openid user:read:email" })
    expect(await conformTwitchToken(Response.json({ access_token: "a", scope: "openid" }))).toBeUndefined()
    expect(await conformTwitchToken(Response.json({ error: "invalid_grant" }, { status: 400 }))).toBeUndefined()
    expect(await conformTwitchToken(new Response("not json", { status: 200 }))).toBeUndefined()
  })
  it("maps the claims", async () => {
    const claims = { sub: "713936733", preferred_username: "streamer", email: "s@example.com", email_verified: true, picture: "https://static-cdn.jtvnw.net/x.png" }
    expect(await map(Twitch(), claims)).toEqual({ id: "713936733", name: "streamer", email: "s@example.com", image: claims.picture , emailVerified: expect.any(Date) })
  })
})

describe("Slack and LinkedIn", () => {
  it("Slack: issuer slack.com, state and nonce, maps the claims", async () => {
    const config = Slack() as AnyConfig
    expect(config.issuer).toBe("https://slack.com")
    expect(config.checks).toEqual(["state", "nonce"])
    const claims = { sub: "U0R7JM", "https://slack.com/team_id": "T0R7GR", name: "Jane", email: "jane@example.com", email_verified: true, picture: "https://secure.gravatar.com/a.png" }
    expect(await map(config, claims)).toEqual({ id: "U0R7JM", name: "Jane", email: "jane@example.com", image: claims.picture , emailVerified: expect.any(Date) })
  })
  it("LinkedIn: issuer www.linkedin.com/oauth, state only, client_secret_post, name from parts", async () => {
    const config = LinkedIn() as AnyConfig
    expect(config.issuer).toBe("https://www.linkedin.com/oauth")
    expect(config.checks).toEqual(["state"])
    expect(config.client.token_endpoint_auth_method).toBe("client_secret_post")
    const claims = { sub: "782bbtaQ", given_name: "John", family_name: "Doe", email: "doe@email.com", email_verified: true, picture: "https://media.licdn.com/x", locale: "en-US" }
    expect(await map(config, claims)).toEqual({ id: "782bbtaQ", name: "John Doe", email: "doe@email.com", image: claims.picture , emailVerified: expect.any(Date) })
  })
})

describe("Facebook", () => {
  it("calls the Graph API with the fields it maps", async () => {
    const config = Facebook() as AnyConfig
    expect(config.authorization.url).toBe("https://www.facebook.com/v23.0/dialog/oauth")
    expect(config.token).toBe("https://graph.facebook.com/v23.0/oauth/access_token")
    const userinfo = new URL(config.userinfo)
    expect(userinfo.origin + userinfo.pathname).toBe("https://graph.facebook.com/v23.0/me")
    expect(userinfo.searchParams.get("fields")!.split(",")).toEqual(expect.arrayContaining(["id", "name", "email"]))
    const profile = { id: "10224052785471234", name: "Jane Doe", email: "jane@example.com", picture: { data: { height: 256, is_silhouette: false, url: "https://platform-lookaside.fbsbx.com/x", width: 256 } } }
    expect(await map(config, profile)).toEqual({ id: profile.id, name: "Jane Doe", email: "jane@example.com", image: profile.picture.data.url , emailVerified: null })
    expect((await map(config, { id: "1" })).image).toBeNull()
  })
  it("pins another Graph API version and refuses a malformed one", () => {
    expect((Facebook({ apiVersion: "v24.0" }) as AnyConfig).token).toBe("https://graph.facebook.com/v24.0/oauth/access_token")
    expect(() => Facebook({ apiVersion: "v1/../../evil" })).toThrow(InvalidProviderOptions)
  })
})

describe("generic OIDC", () => {
  it("takes id, name and issuer, and maps standard claims", async () => {
    const config = OIDC({ id: "corp", name: "Corp SSO", issuer: "https://sso.example.com", clientId: "c", clientSecret: "s" }) as AnyConfig
    expect(config).toMatchObject({ id: "corp", name: "Corp SSO", type: "oidc", issuer: "https://sso.example.com", clientId: "c", clientSecret: "s" })
    expect(config.checks).toEqual(["pkce", "state", "nonce"])
    const claims = { sub: "248289761001", preferred_username: "j.doe", email: "j@example.com", picture: "https://sso.example.com/j.png" }
    expect(await map(config, claims)).toEqual({ id: "248289761001", name: "j.doe", email: "j@example.com", image: claims.picture , emailVerified: null })
  })
})

describe("emailVerified: only where the provider vouches for the address", () => {
  const oidcClaims = { sub: "s-1", email: "jane@example.com", name: "Jane" }
  const claimDriven: Array<[string, AnyConfig]> = [
    ["Google", Google() as AnyConfig], ["Auth0", Auth0({ issuer: "https://t.auth0.com/" }) as AnyConfig], ["Keycloak", Keycloak({ issuer: "https://k.example/realms/r" }) as AnyConfig],
    ["Okta", Okta({ issuer: "https://org.okta.com" }) as AnyConfig], ["Slack", Slack() as AnyConfig], ["LinkedIn", LinkedIn() as AnyConfig], ["Twitch", Twitch() as AnyConfig],
    ["OIDC", OIDC({ issuer: "https://sso.example.com" }) as AnyConfig],
  ]
  it.each(claimDriven)("%s: verified for email_verified: true only (absent or a string is not a yes)", async (_name, config) => {
    expect((await map(config, { ...oidcClaims, email_verified: true })).emailVerified).toBeInstanceOf(Date)
    expect(await map(config, oidcClaims)).toMatchObject({ email: "jane@example.com", emailVerified: null })
    expect((await map(config, { ...oidcClaims, email_verified: "true" })).emailVerified).toBeNull()
    expect(await map(config, { ...oidcClaims, email_verified: false })).toMatchObject({ email: null, emailVerified: null })
  })

  it("Microsoft Entra ID, GitLab and Facebook never mark an address verified, whatever the profile claims", async () => {
    expect((await map(MicrosoftEntraID(), { ...oidcClaims, email_verified: true })).emailVerified).toBeNull()
    expect((await map(GitLab() as AnyConfig, { id: 1, username: "j", name: "J", email: "j@example.com", avatar_url: null, email_verified: true })).emailVerified).toBeNull()
    expect((await map(Facebook() as AnyConfig, { id: "1", email: "j@example.com", email_verified: true })).emailVerified).toBeNull()
  })

  it("Apple and Discord: verified addresses only, and those are emailVerified", async () => {
    const apple = { sub: "a", email: "x@privaterelay.appleid.com" }
    expect((await map(Apple(), { ...apple, email_verified: true })).emailVerified).toBeInstanceOf(Date)
    expect(await map(Apple(), apple)).toMatchObject({ email: null, emailVerified: null })
    const discord = { id: "1", username: "n", discriminator: "0", global_name: null, avatar: null, email: "n@example.com" }
    expect((await map(Discord(), { ...discord, verified: true })).emailVerified).toBeInstanceOf(Date)
    expect(await map(Discord(), { ...discord, verified: false })).toMatchObject({ email: null, emailVerified: null })
  })

  it("GitHub: emailVerified follows what /user/emails said of the address (githubEmail)", async () => {
    const profile = { id: 1, login: "octo", name: null, avatar_url: "a" }
    expect((await map(GitHub() as AnyConfig, { ...profile, email: "o@example.com", email_verified: true })).emailVerified).toBeInstanceOf(Date)
    expect((await map(GitHub() as AnyConfig, { ...profile, email: "o@example.com" })).emailVerified).toBeNull()
    const e = (email: string, verified: boolean, primary = false) => ({ email, verified, primary, visibility: null })
    expect(githubEmail("O@example.com", [e("o@example.com", true)])).toEqual({ email: "O@example.com", email_verified: true })
    expect(githubEmail("o@example.com", [])).toEqual({ email: "o@example.com", email_verified: false })
    expect(githubEmail("o@example.com", [e("o@example.com", false, true), e("p@example.com", true)])).toEqual({ email: "p@example.com", email_verified: true })
    expect(githubEmail(null, [e("o@example.com", false, true)])).toEqual({ email: null, email_verified: false })
  })
})
