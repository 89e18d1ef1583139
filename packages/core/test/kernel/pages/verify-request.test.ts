import { describe, expect, it } from "vitest"
import { renderVerifyRequestPage } from "../../../src/kernel/pages/index.js"
import { bodyText, documentProblems, forms, skeleton, tags, theme, XSS } from "./helpers.js"

describe("renderVerifyRequestPage", () => {
  it('says "Check your email" and names the host', () => {
    const html = renderVerifyRequestPage({ host: "app.example", theme })
    expect(documentProblems(html)).toEqual([])
    expect(html).toContain("<h1>Check your email</h1>")
    expect(bodyText(html)).toContain("continue to app.example.")
    expect(forms(html)).toEqual([])
  })

  it('links "Back to sign in" to the given sign-in page; an unsafe URL makes the link inert', () => {
    expect(tags(renderVerifyRequestPage({ host: "app.example", theme, signinUrl: "/login" }), "a")).toEqual([{ href: "/login" }])
    expect(tags(renderVerifyRequestPage({ host: "app.example", theme, signinUrl: "javascript:alert(1)" }), "a")).toEqual([{ href: "about:blank" }])
    expect(tags(renderVerifyRequestPage({ host: "app.example", theme }), "a")).toEqual([])
  })

  it.each(XSS)("escapes the host: %j", (host) => {
    const html = renderVerifyRequestPage({ host, theme })
    expect(skeleton(html)).toEqual(skeleton(renderVerifyRequestPage({ host: "x", theme })))
    expect(bodyText(html)).toContain(`continue to ${host}.`)
  })
})
