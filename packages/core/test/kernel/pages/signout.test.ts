import { describe, expect, it } from "vitest"
import { renderSignOutPage } from "../../../src/kernel/pages/index.js"
import { bodyText, documentProblems, forms, hidden, skeleton, theme, XSS } from "./helpers.js"

const render = (over: Partial<Parameters<typeof renderSignOutPage>[0]> = {}) =>
  renderSignOutPage({ signoutUrl: "/auth/signout", csrfToken: "tok", callbackUrl: "https://app.example/", theme, ...over })

describe("renderSignOutPage", () => {
  it("asks for confirmation with one form that POSTs to signoutUrl with csrfToken and callbackUrl", () => {
    const html = render()
    expect(documentProblems(html)).toEqual([])
    expect(bodyText(html)).toContain("Are you sure you want to sign out?")
    const all = forms(html)
    expect(all).toHaveLength(1)
    expect(all[0]!.attrs).toEqual({ method: "POST", action: "/auth/signout" })
    expect(hidden(all[0]!)).toEqual({ csrfToken: "tok", callbackUrl: "https://app.example/" })
    expect(all[0]!.buttons).toEqual(["Sign out"])
  })

  it.each(XSS)("escapes csrfToken and callbackUrl: %j", (payload) => {
    const html = render({ csrfToken: payload, callbackUrl: payload })
    expect(skeleton(html)).toEqual(skeleton(render()))
    expect(hidden(forms(html)[0]!)).toEqual({ csrfToken: payload, callbackUrl: payload })
  })

  it("makes a javascript: signoutUrl inert", () => {
    expect(forms(render({ signoutUrl: "JavaScript:alert(1)" }))[0]!.attrs.action).toBe("about:blank")
  })
})
