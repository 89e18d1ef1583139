import { describe, expect, it } from "vitest"
import { renderEmailConfirmPage } from "../../../src/kernel/pages/index.js"
import { bodyText, documentProblems, forms, hidden, skeleton, tags, theme, XSS } from "./helpers.js"

type Params = Parameters<typeof renderEmailConfirmPage>[0]
const params: Params = {
  actionUrl: "https://app.example/auth/callback/nodemailer",
  csrfToken: "csrf-1",
  fields: { token: "tok-abc", email: "ada@example.com", callbackUrl: "/welcome" },
  email: "ada@example.com",
  theme,
}

describe("renderEmailConfirmPage", () => {
  it("has exactly one form that POSTs the hidden fields and the CSRF token to actionUrl", () => {
    const html = renderEmailConfirmPage(params)
    expect(documentProblems(html)).toEqual([])
    const all = forms(html)
    expect(all).toHaveLength(1)
    expect(all[0]!.attrs).toEqual({ method: "POST", action: params.actionUrl })
    expect(hidden(all[0]!)).toEqual({ ...params.fields, csrfToken: "csrf-1" })
    expect(all[0]!.inputs.every((i) => i.type === "hidden")).toBe(true)
    expect(all[0]!.buttons).toEqual(["Sign in"])
    expect(bodyText(html)).toContain("Continue as ada@example.com?")
  })

  it("does not submit itself: no script, no meta refresh, no link carrying the token", () => {
    const html = renderEmailConfirmPage(params)
    expect(html).not.toMatch(/<script|http-equiv|autofocus/i)
    expect(tags(html, "a")).toEqual([])
  })

  it("takes the CSRF token from its parameter, not from a field of the same name", () => {
    const html = renderEmailConfirmPage({ ...params, fields: { ...params.fields, csrfToken: "attacker" } })
    const inputs = forms(html)[0]!.inputs.filter((i) => i.name === "csrfToken")
    expect(inputs).toEqual([{ type: "hidden", name: "csrfToken", value: "csrf-1" }])
  })

  it("keeps the link's token out of the Referer sent to a remote logo", () => {
    const html = renderEmailConfirmPage({ ...params, theme: { logo: "https://cdn.example/logo.png" } })
    expect(html).toContain('<meta name="referrer" content="same-origin">')
    expect(tags(html, "img")[0]).toMatchObject({ src: "https://cdn.example/logo.png", referrerpolicy: "no-referrer" })
  })

  it.each(XSS)("escapes field names, values, the e-mail address and the CSRF token: %j", (payload) => {
    const html = renderEmailConfirmPage({ ...params, csrfToken: payload, email: payload, fields: { [payload]: payload } })
    const benign = renderEmailConfirmPage({ ...params, csrfToken: "x", email: "x", fields: { x: "x" } })
    expect(skeleton(html)).toEqual(skeleton(benign))
    expect(hidden(forms(html)[0]!)).toEqual({ [payload]: payload, csrfToken: payload })
    expect(bodyText(html)).toContain(`Continue as ${payload}?`)
  })

  it("makes a javascript: actionUrl inert", () => {
    expect(forms(renderEmailConfirmPage({ ...params, actionUrl: "javascript:alert(1)" }))[0]!.attrs.action).toBe("about:blank")
  })
})
