/**
 * The built-in sign-in page with a passkey provider: a form the bundled script drives, the script
 * inlined under a hash-based CSP that also allows fetching the options (and nothing else), passkey
 * autofill on the page's user-name field, and the bundle kept in step with its source.
 */
import { describe, expect, it } from "vitest"
import { PASSKEY_SCRIPT } from "../../../src/kernel/pages/passkey-script.js"
import { ORIGIN } from "../../helpers/harness.js"
import { directives, sha256Source } from "../../kernel/pages/csp.js"
import { passkeyScriptModule } from "../../../scripts/bundle-passkey-script.mjs"
import { readFileSync } from "node:fs"
import { setup } from "./setup.js"

async function page(provider = {}) {
  const s = setup("jwt", {}, provider)
  const res = await s.client.request("/auth/signin")
  return { res, html: await res.text(), csp: directives(res.headers.get("content-security-policy")) }
}

describe("the sign-in page with a passkey provider", () => {
  it("has a passkey form posting to the provider's callback with the CSRF token, driven by the inlined script", async () => {
    const { html } = await page()
    const form = html.match(/<form method="POST" action="([^"]+)" data-passkey-options="([^"]+)"( data-passkey-autofill)?>([\s\S]*?)<\/form>/)!
    expect(form[1]).toBe(`${ORIGIN}/auth/callback/passkey`)
    expect(form[2]).toBe(`${ORIGIN}/auth/webauthn-options/passkey`)
    expect(form[4]).toMatch(/name="csrfToken" value="[^"]+"/)
    expect(form[4]).toContain('name="action" value=""')
    expect(form[4]).toContain('name="data" value=""')
    expect(form[4]).toContain("Sign in with Passkey")
    expect(form[4]).not.toContain("Create an account")
    expect(html).toContain(`<script>${PASSKEY_SCRIPT}</script>`)
  })

  it("allows exactly that script by hash and fetching only from the options' origin", async () => {
    const { csp } = await page()
    expect(csp.get("script-src")).toEqual([await sha256Source(PASSKEY_SCRIPT)])
    expect(csp.get("connect-src")).toEqual([ORIGIN])
    expect(csp.get("default-src")).toEqual(["'none'"])
    expect(csp.get("form-action")).toContain(ORIGIN)
  })

  it("offers autofill on the credentials user-name field; not when conditional UI is off", async () => {
    const on = await page()
    expect(on.html).toContain("data-passkey-autofill")
    expect(on.html).toMatch(/name="username"[^>]*autocomplete="username webauthn"/)
    const off = await page({ enableConditionalUI: false })
    expect(off.html).not.toContain("data-passkey-autofill")
    expect(off.html).not.toMatch(/autocomplete="[^"]*webauthn"/)
  })

  it("offers account creation only when the provider allows new accounts", async () => {
    const { html } = await page({ allowNewAccounts: true })
    expect(html).toContain('<button type="submit" value="register"')
  })

  it("a page without passkey providers has no script and no script-src", async () => {
    const s = setup("jwt", { providers: [] })
    const res = await s.client.request("/auth/signin")
    expect(await res.text()).not.toContain("<script")
    expect(directives(res.headers.get("content-security-policy")).has("script-src")).toBe(false)
  })
})

describe("the bundled passkey script", () => {
  it("is the current bundle of browser/passkey.ts (run `pnpm --filter @authlib/core bundle:passkey`)", async () => {
    const current = readFileSync(new URL("../../../src/kernel/pages/passkey-script.ts", import.meta.url), "utf8")
    expect(current).toBe(await passkeyScriptModule())
  })
})

describe("a refused passkey", () => {
  it("lands on an error page that says the passkey could not be used, with a try-again link (400)", async () => {
    const s = setup("jwt")
    const res = await s.client.request("/auth/error?error=WebAuthnVerificationError&code=SIGNATURE_INVALID")
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain("The passkey could not be used to sign in.")
    expect(html).toContain("Try again")
    expect(html).not.toContain("SIGNATURE_INVALID")
  })
})
