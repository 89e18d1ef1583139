/**
 * GitHub's private-email lookup, run through the preset's own `userinfo.request` against a local
 * stand-in for the GitHub API (a GitHub Enterprise base URL pointing at 127.0.0.1).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import GitHub, { pickGitHubEmail, type GitHubEmail } from "../src/github.js"
import { InvalidProviderOptions, ProviderRequestError } from "../src/errors.js"

interface Route { status?: number; body: unknown; raw?: boolean }
const routes = new Map<string, Route>()
const seen: Array<{ path: string; authorization?: string; userAgent?: string; accept?: string }> = []
let server: Server
let baseUrl: string

function handle(req: IncomingMessage, res: ServerResponse) {
  seen.push({ path: req.url ?? "", authorization: req.headers.authorization, userAgent: req.headers["user-agent"], accept: req.headers.accept })
  const route = req.headers.authorization === "Bearer gho_valid" ? routes.get(req.url ?? "") : { status: 401, body: { message: "Bad credentials" } }
  if (!route) return void res.writeHead(404, { "content-type": "application/json" }).end('{"message":"Not Found"}')
  res.writeHead(route.status ?? 200, { "content-type": route.raw ? "text/html" : "application/json" })
  res.end(route.raw ? String(route.body) : JSON.stringify(route.body))
}

beforeAll(async () => {
  server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  routes.clear()
  seen.length = 0
})

const octocat = { id: 583231, login: "octocat", name: "The Octocat", email: null, avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4" }

async function signIn(accessToken = "gho_valid") {
  const provider = GitHub({ enterprise: { baseUrl } }) as any
  const profile = await provider.userinfo.request({ tokens: { access_token: accessToken, token_type: "bearer" }, provider })
  return { profile, user: await provider.profile(profile, {}) }
}

describe("GitHub userinfo request", () => {
  it("uses the public profile e-mail, verified when /user/emails lists it verified", async () => {
    routes.set("/api/v3/user", { body: { ...octocat, email: "octocat@github.com" } })
    routes.set("/api/v3/user/emails", { body: [{ email: "octocat@github.com", primary: true, verified: true, visibility: "public" }] })
    const { user } = await signIn()
    expect(user).toEqual({ id: "583231", name: "The Octocat", email: "octocat@github.com", image: octocat.avatar_url, emailVerified: expect.any(Date) })
    expect(seen.map((s) => s.path)).toEqual(["/api/v3/user", "/api/v3/user/emails"])
    expect(seen[0]).toMatchObject({ authorization: "Bearer gho_valid", userAgent: "authlib", accept: "application/vnd.github+json" })
  })

  it("keeps a public e-mail unverified when /user/emails is refused, and replaces one GitHub lists unverified", async () => {
    routes.set("/api/v3/user", { body: { ...octocat, email: "victim@example.com" } })
    routes.set("/api/v3/user/emails", { status: 404, body: { message: "Not Found" } })
    expect((await signIn()).user).toMatchObject({ email: "victim@example.com", emailVerified: null })
    routes.set("/api/v3/user/emails", { body: [{ email: "victim@example.com", primary: true, verified: false, visibility: "public" }, { email: "octo@example.com", primary: false, verified: true, visibility: null }] })
    expect((await signIn()).user).toMatchObject({ email: "octo@example.com", emailVerified: expect.any(Date) })
  })

  it("looks up the primary verified address when the profile e-mail is private", async () => {
    routes.set("/api/v3/user", { body: octocat })
    routes.set("/api/v3/user/emails", {
      body: [
        { email: "old@example.com", primary: false, verified: true, visibility: null },
        { email: "octocat@github.com", primary: true, verified: true, visibility: "private" },
      ],
    })
    const { profile, user } = await signIn()
    expect(user.email).toBe("octocat@github.com")
    expect(profile.id).toBe(583231)
    expect(seen.map((s) => s.path)).toEqual(["/api/v3/user", "/api/v3/user/emails"])
  })

  it("never takes an unverified address, even the primary one", async () => {
    routes.set("/api/v3/user", { body: octocat })
    routes.set("/api/v3/user/emails", {
      body: [
        { email: "victim@example.com", primary: true, verified: false, visibility: "private" },
        { email: "second@example.com", primary: false, verified: true, visibility: null },
      ],
    })
    expect((await signIn()).user.email).toBe("second@example.com")
    routes.set("/api/v3/user/emails", { body: [{ email: "victim@example.com", primary: true, verified: false, visibility: null }] })
    expect((await signIn()).user.email).toBeNull()
  })

  it("signs in without an address when /user/emails is refused (user:email not granted)", async () => {
    routes.set("/api/v3/user", { body: octocat })
    routes.set("/api/v3/user/emails", { status: 404, body: { message: "Not Found" } })
    expect((await signIn()).user).toMatchObject({ id: "583231", email: null })
  })

  it("fails with ProviderRequestError HTTP_ERROR when /user rejects the token", async () => {
    routes.set("/api/v3/user", { body: octocat })
    const err = await signIn("gho_revoked").catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProviderRequestError)
    expect(err).toMatchObject({ type: "ProviderRequestError", code: "HTTP_ERROR", cause: { provider: "github", status: 401 } })
  })

  it("fails with INVALID_JSON when /user answers an HTML page", async () => {
    routes.set("/api/v3/user", { body: "<html>maintenance</html>", raw: true })
    await expect(signIn()).rejects.toMatchObject({ type: "ProviderRequestError", code: "INVALID_JSON" })
  })

  it("fails with INVALID_PROFILE when /user answers JSON that is not a user", async () => {
    routes.set("/api/v3/user", { body: null })
    await expect(signIn()).rejects.toMatchObject({ type: "ProviderRequestError", code: "INVALID_PROFILE" })
    routes.set("/api/v3/user", { body: { login: "no-id" } })
    await expect(signIn()).rejects.toMatchObject({ code: "INVALID_PROFILE" })
  })

  it("fails with ACCESS_TOKEN_MISSING before any request when the token set has no access_token", async () => {
    await expect(signIn("")).rejects.toMatchObject({ code: "ACCESS_TOKEN_MISSING" })
    expect(seen).toEqual([])
  })

  it("fails with NETWORK_ERROR when the API cannot be reached", async () => {
    const provider = GitHub({ userinfo: { url: "http://127.0.0.1:1/user" } }) as any
    await expect(provider.userinfo.request({ tokens: { access_token: "gho_valid" }, provider })).rejects.toMatchObject({ code: "NETWORK_ERROR" })
  })

  it("refuses a provider whose userinfo has no url", async () => {
    const provider = GitHub() as any
    await expect(provider.userinfo.request({ tokens: { access_token: "x" }, provider: { ...provider, userinfo: {} } })).rejects.toBeInstanceOf(InvalidProviderOptions)
  })
})

describe("pickGitHubEmail", () => {
  const e = (email: string, primary: boolean, verified: boolean): GitHubEmail => ({ email, primary, verified, visibility: null })
  it("prefers primary+verified, then any verified, else null", () => {
    expect(pickGitHubEmail([e("a@x.io", false, true), e("b@x.io", true, true)])).toBe("b@x.io")
    expect(pickGitHubEmail([e("a@x.io", true, false), e("b@x.io", false, true)])).toBe("b@x.io")
    expect(pickGitHubEmail([e("a@x.io", true, false)])).toBeNull()
    expect(pickGitHubEmail([])).toBeNull()
  })
})
