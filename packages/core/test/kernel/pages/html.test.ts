import { describe, expect, it } from "vitest"
import { escapeHtml } from "../../../src/kernel/pages/index.js"
import { html, layout, safeUrl, SafeHtml } from "../../../src/kernel/pages/html.js"
import { documentProblems, tags, XSS } from "./helpers.js"

describe("escapeHtml", () => {
  it("escapes the characters that end text, attributes or unquoted values", () => {
    expect(escapeHtml(`<a href="x" title='y'>\`&`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&#96;&amp;")
  })

  it("escapes an already escaped string again, so it shows as typed", () => {
    expect(escapeHtml("&lt;")).toBe("&amp;lt;")
  })

  it("leaves other text, including non-ASCII, unchanged", () => {
    expect(escapeHtml("Zoë / 東京 = 1 + 1")).toBe("Zoë / 東京 = 1 + 1")
  })

  it("turns null and undefined from JavaScript callers into the empty string", () => {
    expect(escapeHtml(null as never)).toBe("")
    expect(escapeHtml(undefined as never)).toBe("")
    expect(escapeHtml(42 as never)).toBe("42")
  })
})

describe("html template", () => {
  it("escapes interpolations and keeps SafeHtml fragments", () => {
    const inner = html`<b>${"<i>"}</b>`
    expect(html`<p title="${'"x"'}">${inner}${["<", html`<br>`]}${null}${undefined}${false}${0}</p>`.value).toBe(
      '<p title="&quot;x&quot;"><b>&lt;i&gt;</b>&lt;<br>0</p>',
    )
  })

  it("does not treat a string that looks like SafeHtml as safe", () => {
    const fake = { value: "<script>" } as unknown as SafeHtml
    expect(html`${fake}`.value).toBe("[object Object]")
  })
})

describe("safeUrl", () => {
  it.each(["https://cdn.example/a.png", "http://localhost:3000/x", "/logo.svg", "logo.svg", "?x=1", "//cdn.example/a.png"])(
    "accepts %j",
    (url) => expect(safeUrl(url)).toBe(url),
  )

  it.each([
    "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)", "java\nscript:x",
    "\u0000javascript:x", "data:image/png;base64,AAAA", "vbscript:x", "file:///etc/passwd", "blob:https://a.example/1",
    "", `https://a.example/${"a".repeat(5000)}`, "http://[bad", 42, null, undefined,
  ])("refuses %j", (url) => expect(safeUrl(url)).toBeUndefined())
})

describe("layout", () => {
  const page = (theme = {}) => layout({ title: "<T>", theme, body: html`<p>${"body"}</p>` })

  it("is a complete, accessible document with an escaped title", () => {
    expect(documentProblems(page())).toEqual([])
    expect(page()).toContain("<title>&lt;T&gt;</title>")
    expect(page()).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(page()).toContain(":focus-visible{outline:3px solid var(--focus)")
  })

  it("shows an http(s) theme logo and drops any other", () => {
    expect(tags(page({ logo: "https://cdn.example/l.png" }), "img")).toEqual([
      { class: "logo", src: "https://cdn.example/l.png", alt: "", referrerpolicy: "no-referrer" },
    ])
    for (const logo of ["javascript:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>", "\tjavascript:x"]) {
      expect(tags(page({ logo }), "img")).toEqual([])
    }
  })

  it("shows the app's name beside the logo and in the title, escaped, cleaned and at most 60 characters", () => {
    const named = page({ name: "Acme <Corp>", logo: "/logo.svg" })
    expect(documentProblems(named)).toEqual([])
    expect(named).toContain("<title>&lt;T&gt; · Acme &lt;Corp&gt;</title>")
    expect(named).toContain('<div class="brand"><img class="logo" src="/logo.svg" alt="" referrerpolicy="no-referrer"><span class="app-name">Acme &lt;Corp&gt;</span></div>')
    expect(page({ name: "a\u0000b\r\nc" })).toContain('<span class="app-name">abc</span>')
    expect(page({ name: "x".repeat(500) })).toContain(`<span class="app-name">${"x".repeat(60)}</span>`)
    for (const name of ["", "   ", 42 as unknown as string]) expect(page({ name })).not.toContain(`class="app-name"`)
    for (const xss of XSS) expect(tags(page({ name: xss }), "script")).toEqual([])
  })

  it("renders without a theme from a JavaScript caller", () => {
    expect(documentProblems(layout({ title: "t", theme: undefined as never, body: html`` }))).toEqual([])
  })
})
