import { describe, expect, it } from "vitest"
import { renderVerifyRequestPage } from "../../src/pages/index.js"
import { bodyText, documentProblems, forms, skeleton, theme, XSS } from "./helpers.js"

describe("renderVerifyRequestPage", () => {
  it('says "Check your email" and names the host', () => {
    const html = renderVerifyRequestPage({ host: "app.example", theme })
    expect(documentProblems(html)).toEqual([])
    expect(html).toContain("<h1>Check your email</h1>")
    expect(bodyText(html)).toContain("continue to app.example.")
    expect(forms(html)).toEqual([])
  })

  it.each(XSS)("escapes the host: %j", (host) => {
    const html = renderVerifyRequestPage({ host, theme })
    expect(skeleton(html)).toEqual(skeleton(renderVerifyRequestPage({ host: "x", theme })))
    expect(bodyText(html)).toContain(`continue to ${host}.`)
  })
})
