import { describe, expect, it } from "vitest"
import { ANY_FORM_TARGET, cspSource, pageCsp, pageHeaders, inlineHash } from "../../../src/kernel/pages/headers.js"
import { html, layout } from "../../../src/kernel/pages/html.js"
import { directives, sha256Source } from "./csp.js"
import { styleOf, theme } from "./helpers.js"

const page = (body = html`<p>x</p>`, pageTheme = theme) => layout({ title: "T", theme: pageTheme, body })

describe("cspSource", () => {
  it.each([
    ["/auth/signin", "'self'"],
    ["logo.svg", "'self'"],
    ["?a=1", "'self'"],
    ["https://cdn.example/a.png?x=1", "https://cdn.example"],
    ["http://localhost:3000/auth/signout", "http://localhost:3000"],
    ["https://CDN.Example:8443/a.png", "https://cdn.example:8443"],
    ["https://bücher.example/a.png", "https://xn--bcher-kva.example"],
    ["//cdn.example/a.png", "cdn.example"],
  ])("allows %j as %s", (url, source) => expect(cspSource(url)).toBe(source))

  it.each([
    "about:blank", "javascript:alert(1)", "data:image/png;base64,AAAA",
    // The URL parser keeps these in a host; in a policy they would start a new directive or list.
    "https://a;script-src *.example/", "https://a,b.example/", "//a;b.example/x", "https://a*b/", "http://[::1]:3000/",
  ])("allows nothing for %j", (url) => expect(cspSource(url)).toBeUndefined())
})

describe("inlineHash", () => {
  it("is the base64 SHA-256 of the exact text, as a CSP hash source", async () => {
    for (const css of ["", "a{b:c}", "p::before{content:\"Zoë\"}"]) expect(inlineHash(css)).toBe(await sha256Source(css))
  })

  it("returns the same value from its cache", () => {
    expect(inlineHash("x{y:z}")).toBe(inlineHash("x{y:z}"))
  })
})

describe("pageCsp", () => {
  it("forbids everything the page does not use, and names the hash of its own stylesheet", async () => {
    const doc = page()
    const csp = directives(pageCsp(doc))
    expect([...csp.keys()]).toEqual(["default-src", "style-src", "img-src", "form-action", "base-uri", "frame-ancestors"])
    expect(csp.get("default-src")).toEqual(["'none'"])
    // The page's own inline icon (no logo in the theme): data: images, nothing else.
    expect(csp.get("img-src")).toEqual(["data:"])
    expect(csp.get("style-src")).toEqual([await sha256Source(styleOf(doc))])
    expect(csp.get("form-action")).toEqual(["'none'"])
    expect(csp.get("base-uri")).toEqual(["'none'"])
    expect(csp.get("frame-ancestors")).toEqual(["'none'"])
  })

  it("a different theme gets the hash of its own stylesheet", async () => {
    const dark = page(undefined, { colorScheme: "dark", brandColor: "#ff0000" })
    expect(directives(pageCsp(dark)).get("style-src")).toEqual([await sha256Source(styleOf(dark))])
    expect(pageCsp(dark)).not.toBe(pageCsp(page()))
  })

  it("allows the images of the page, each by its origin, escaped values read back", () => {
    const doc = page(html`<img src="${"https://a.example/x.png?a=1&b=2"}" alt=""><img src="${"/local.png"}" alt="">`, {
      ...theme,
      logo: "https://logo.example/l.svg",
    })
    expect(directives(pageCsp(doc)).get("img-src")).toEqual(["https://logo.example", "https://a.example", "'self'"])
  })

  it("allows 'self', the forms' actions and the given targets; an inert action allows nothing", () => {
    const doc = page(html`<form method="POST" action="${"https://auth.example/auth/signout"}"></form><form action="about:blank"></form>`)
    const csp = directives(pageCsp(doc, ["https://app.example/after", "https://app.example/other", "/relative"]))
    expect(csp.get("form-action")).toEqual(["'self'", "https://auth.example", "https://app.example"])
  })

  it("sends no form-action when a form may end on any site", () => {
    const doc = page(html`<form method="POST" action="/auth/signin/github"></form>`)
    expect(directives(pageCsp(doc, ANY_FORM_TARGET)).has("form-action")).toBe(false)
  })

  it("a host that is no CSP host cannot add a directive", () => {
    const doc = page(html`<form method="POST" action="${"http://x;script-src 'unsafe-inline'/auth/signout"}"></form>`)
    const csp = pageCsp(doc, ["https://y;img-src *.example/"])
    expect(directives(csp).get("form-action")).toEqual(["'self'"])
    expect(csp).not.toContain("unsafe-inline")
    expect(directives(csp).get("img-src")).toEqual(["data:"])
  })
})

describe("pageHeaders", () => {
  it("adds framing, sniffing and referrer protection to the policy", () => {
    const doc = page()
    expect(pageHeaders(doc)).toEqual({
      "content-security-policy": pageCsp(doc),
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
    })
  })
})
