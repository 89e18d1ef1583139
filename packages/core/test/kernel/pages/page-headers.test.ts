/**
 * Every built-in page, fetched through `Auth`, is sent with frame protection and a policy that
 * allows exactly what the page embeds: its stylesheet by hash, its images, its form targets.
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig, OIDCConfig } from "../../../src/index.js"
import { Client, config, credentials, ORIGIN } from "../../helpers/harness.js"
import { emailProvider, emailSetup, requestLink, type Outbox } from "../../capabilities/email/helpers.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { directives, sha256Source } from "./csp.js"
import { forms, styleOf, tags } from "./helpers.js"

const LOGO = "https://cdn.brand.example/logo.svg"

function sso(over: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "corp", name: "Corp", type: "oidc", issuer: "https://sso.corp.example", clientId: "id", clientSecret: "secret",
    style: { logo: "https://logos.corp.example/corp.svg", brandColor: "#123456" },
    ...over,
  }
}

/** Asserts the headers every page shares and returns its policy's directives. */
async function expectPageHeaders(res: Response): Promise<{ csp: Map<string, string[]>; html: string }> {
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
  expect(res.headers.get("x-frame-options")).toBe("DENY")
  expect(res.headers.get("x-content-type-options")).toBe("nosniff")
  expect(res.headers.get("referrer-policy")).toBe("same-origin")
  expect(res.headers.get("cache-control")).toBe("private, no-cache, no-store")
  const html = await res.text()
  const csp = directives(res.headers.get("content-security-policy"))
  expect(csp.get("default-src")).toEqual(["'none'"])
  expect(csp.get("base-uri")).toEqual(["'none'"])
  expect(csp.get("frame-ancestors")).toEqual(["'none'"])
  // The hash is checked against the <style> text the browser will see, computed here on its own.
  expect(csp.get("style-src")).toEqual([await sha256Source(styleOf(html))])
  expect([...csp.keys()].every((name) => ["default-src", "style-src", "img-src", "form-action", "base-uri", "frame-ancestors"].includes(name))).toBe(true)
  return { csp, html }
}

/** The e-mail confirm page of a fresh link. */
async function confirmPage(over: Partial<AuthConfig> = {}): Promise<Response> {
  const { client, outbox } = emailSetup(over)
  await requestLink(client, "jane@example.com")
  const url = new URL(outbox.sent[0]!.url)
  return client.request(url.pathname + url.search)
}

describe("built-in pages are sent with frame protection and a restrictive policy", () => {
  const pages: Array<[string, () => Promise<Response>]> = [
    ["GET /auth/signin", () => new Client(config()).request("/auth/signin")],
    ["GET /auth/signout", () => new Client(config()).request("/auth/signout")],
    ["GET /auth/error", () => new Client(config()).request("/auth/error?error=AccessDenied")],
    ["GET /auth/verify-request", () => new Client(config()).request("/auth/verify-request")],
    ["GET /auth/callback/email (confirm)", () => confirmPage()],
  ]

  it.each(pages)("%s", async (_name, fetchPage) => {
    const { csp, html } = await expectPageHeaders(await fetchPage())
    // No logo: the page's inline icon, and so data: images only.
    expect(csp.get("img-src")).toEqual(["data:"])
    expect(tags(html, "link").filter((l) => l.rel === "icon").map((l) => (l.href ?? "").slice(0, 19))).toEqual(["data:image/svg+xml,"])
  })

  it("pages without a form allow no form submission", async () => {
    for (const path of ["/auth/error?error=Verification", "/auth/verify-request"]) {
      const { csp } = await expectPageHeaders(await new Client(config()).request(path))
      expect(csp.get("form-action")).toEqual(["'none'"])
    }
  })

  it("the hash follows the theme: each theme's page names its own stylesheet", async () => {
    const dark = await expectPageHeaders(await new Client(config({ theme: { colorScheme: "dark", brandColor: "#ff00aa" } })).request("/auth/signin"))
    const light = await expectPageHeaders(await new Client(config()).request("/auth/signin"))
    expect(dark.csp.get("style-src")).not.toEqual(light.csp.get("style-src"))
  })
})

describe("img-src names what the page loads", () => {
  it.each(["/auth/signin", "/auth/signout", "/auth/error?error=AccessDenied", "/auth/verify-request"])("%s allows the theme logo", async (path) => {
    const { csp, html } = await expectPageHeaders(await new Client(config({ theme: { logo: LOGO } })).request(path))
    expect(tags(html, "img").map((img) => img.src)).toContain(LOGO)
    // The logo is the page's icon too: no data: image, and no request for /favicon.ico.
    expect(tags(html, "link").filter((l) => l.rel === "icon").map((l) => l.href)).toEqual([LOGO])
    expect(csp.get("img-src")).toEqual(["https://cdn.brand.example"])
  })

  it("the e-mail confirm page allows the theme logo", async () => {
    const { csp } = await expectPageHeaders(await confirmPage({ theme: { logo: LOGO } }))
    expect(csp.get("img-src")).toEqual(["https://cdn.brand.example"])
  })

  it("a logo on the application's own site is allowed as 'self'", async () => {
    const { csp } = await expectPageHeaders(await new Client(config({ theme: { logo: "/brand.svg" } })).request("/auth/signin"))
    expect(csp.get("img-src")).toEqual(["'self'"])
  })

  it("the sign-in page allows its provider button logos, and no more", async () => {
    const res = await new Client(config({ theme: { logo: LOGO }, providers: [sso(), credentials()] })).request("/auth/signin")
    const { csp } = await expectPageHeaders(res)
    expect(csp.get("img-src")).toEqual(["https://cdn.brand.example", "https://logos.corp.example"])
  })
})

describe("form-action allows where the page's forms post", () => {
  it("GET /auth/signin allows each form's action", async () => {
    const { csp, html } = await expectPageHeaders(await new Client(config()).request("/auth/signin"))
    const actions = forms(html).map((f) => new URL(f.attrs.action!).origin)
    expect(actions).toEqual([ORIGIN])
    expect(csp.get("form-action")).toEqual(["'self'", ORIGIN])
  })

  it("lists the action origin when the application URL is not the origin the page is served from", async () => {
    // `url` names the public origin; the page is fetched on another (an internal host name).
    const client = new Client(config({ url: "https://app.example" }), "http://internal:8080")
    const { csp, html } = await expectPageHeaders(await client.request("/auth/signin"))
    expect(forms(html)[0]!.attrs.action).toBe("https://app.example/auth/callback/credentials")
    expect(csp.get("form-action")).toEqual(["'self'", "https://app.example"])
  })

  it("the sign-in page with an e-mail form allows its action and a custom verify-request page", async () => {
    const outbox: Outbox = { sent: [] }
    const cfg = config({ adapter: memoryAdapter(), providers: [emailProvider(outbox)], pages: { verifyRequest: "https://mail.example/check" } })
    const { csp } = await expectPageHeaders(await new Client(cfg).request("/auth/signin"))
    expect(csp.get("form-action")).toEqual(["'self'", ORIGIN, "https://mail.example"])
  })

  it("GET /auth/signout allows its action and the origin its POST redirects to", async () => {
    // A custom redirect callback may send the user to another origin; the redirect after the
    // form's POST is checked against form-action by Chrome and Safari.
    const cfg = config({ callbacks: { redirect: ({ url }) => url } })
    const res = await new Client(cfg).request(`/auth/signout?callbackUrl=${encodeURIComponent("https://www.example/bye")}`)
    const { csp } = await expectPageHeaders(res)
    expect(csp.get("form-action")).toEqual(["'self'", ORIGIN, "https://www.example"])
  })

  it("the e-mail confirm page allows its action", async () => {
    const { csp, html } = await expectPageHeaders(await confirmPage())
    expect(new URL(forms(html)[0]!.attrs.action!).origin).toBe(ORIGIN)
    expect(csp.get("form-action")).toEqual(["'self'", ORIGIN])
  })

  it("a sign-in page with an OAuth provider sends no form-action: the provider's redirects are unknown", async () => {
    const { csp } = await expectPageHeaders(await new Client(config({ providers: [sso(), credentials()] })).request("/auth/signin"))
    expect(csp.has("form-action")).toBe(false)
  })
})
