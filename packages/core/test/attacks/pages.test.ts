/**
 * Reflected XSS through the built-in pages, driven by the request as an attacker's link would be:
 * every query parameter a page reads, and the forwarded host a page names. Markup never comes
 * back as markup, and no `javascript:` URL reaches an attribute.
 */
import { describe, expect, it } from "vitest"
import { Client, config, ORIGIN } from "../helpers/harness.js"
import { emailSetup, formFields } from "../capabilities/email/helpers.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"

const SCRIPT = `"><script>alert(1)</script>`
const IMG = `<img src=x onerror=alert(1)>`

function expectInert(html: string): void {
  expect(html).not.toMatch(/<script|<img src=x|<svg|onerror=|onload=/i)
  expect(html).not.toMatch(/javascript:/i)
}

describe("reflected input on the built-in pages", () => {
  it("GET /auth/signin escapes email, and never shows error, code or a javascript: callbackUrl as given", async () => {
    const q = new URLSearchParams({ email: SCRIPT, error: IMG, code: `"><svg onload=alert(1)>`, callbackUrl: "javascript:alert(1)" })
    const res = await emailSetup().client.request(`/auth/signin?${q}`)
    const html = await res.text()
    expectInert(html)
    expect(html).toContain("&quot;&gt;&lt;script&gt;")
    expect(formFields(html).callbackUrl).toBe(ORIGIN)
  })

  it("GET /auth/signin with error=CredentialsSignin shows a code only in its short shape", async () => {
    const res = await new Client(config()).request(`/auth/signin?error=CredentialsSignin&code=${encodeURIComponent(`x"><b>owned</b>`)}`)
    const html = await res.text()
    expect(html).not.toContain("owned")
    expect(html).not.toContain("Error code")
  })

  it("GET /auth/signout escapes nothing into its form: an off-site or script callbackUrl becomes the origin", async () => {
    for (const callbackUrl of ["javascript:alert(1)", `${ORIGIN}/${SCRIPT}`, "https://evil.example/"]) {
      const res = await new Client(config()).request(`/auth/signout?${new URLSearchParams({ callbackUrl })}`)
      const html = await res.text()
      expectInert(html)
      const kept = formFields(html).callbackUrl!
      expect(new URL(kept).origin).toBe(ORIGIN)
    }
  })

  it("the e-mail confirm page escapes a hostile token and keeps it a hidden value", async () => {
    // An adapter that cannot read tokens unused (an Auth.js one) shows the page for any token.
    const authJsLike = Object.assign(memoryAdapter(), { getVerificationToken: undefined })
    const { client } = emailSetup({}, {}, authJsLike)
    const q = new URLSearchParams({ email: "jane@example.com", token: SCRIPT, callbackUrl: "javascript:alert(1)" })
    const res = await client.request(`/auth/callback/email?${q}`)
    const html = await res.text()
    expectInert(html)
    expect(formFields(html)).toMatchObject({ token: SCRIPT, callbackUrl: ORIGIN })
    // One that can refuses the unknown token before any page is made.
    const checked = await emailSetup().client.request(`/auth/callback/email?${q}`)
    expect(checked.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
  })

  it("verify-request does not take a host with markup from X-Forwarded-Host", async () => {
    const res = await new Client(config()).request("/auth/verify-request", { headers: { "x-forwarded-host": `evil"><script>alert(1)</script>` } })
    const html = await res.text()
    expectInert(html)
    expect(html).toContain("<strong>localhost:3000</strong>")
  })
})
