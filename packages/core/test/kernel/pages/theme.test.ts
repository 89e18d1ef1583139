import { describe, expect, it } from "vitest"
import { renderSignOutPage } from "../../../src/kernel/pages/index.js"
import { cssColor, readableText } from "../../../src/kernel/pages/theme.js"
import type { Theme } from "../../../src/kernel/types/config.js"
import { styleOf } from "./helpers.js"

const css = (theme: Theme) =>
  styleOf(renderSignOutPage({ signoutUrl: "/auth/signout", csrfToken: "t", callbackUrl: "/", theme }))

describe("cssColor", () => {
  it.each(["#fff", "#FFFA", "#24292f", "#24292fcc", "rebeccapurple", "rgb(36, 41, 47)", "rgb(0 0 0 / 50%)", "hsl(210deg 15% 16%)", "oklch(0.6 0.2 250)", " #abc "])(
    "accepts %j",
    (value) => expect(cssColor(value)).toBe(value.trim()),
  )

  it.each([
    "red;}body{display:none", "red;background:url(https://evil.example/x)", "#fff</style><script>alert(1)</script>",
    "url(javascript:alert(1))", "expression(alert(1))", "rgb(0,0,0);x:y", "rgb(0,0,0)) body{", "var(--x)",
    "#ffff0", "#", "red/**/", "\"red\"", "red\\;", "calc(1px)", "rgb(", "", "a".repeat(30), 12, null, undefined,
  ])("refuses %j", (value) => expect(cssColor(value)).toBeUndefined())
})

describe("readableText", () => {
  it.each([["#000", "#fff"], ["#24292f", "#fff"], ["#2563eb", "#fff"], ["#fff", "#111"], ["#ffd700", "#111"], ["#ffffff80", "#111"], ["red", "#fff"]])(
    "picks %s text on %s",
    (background, text) => expect(readableText(background)).toBe(text),
  )
})

describe("theme stylesheet", () => {
  it("follows the system with prefers-color-scheme when colorScheme is auto or unset", () => {
    for (const theme of [{ colorScheme: "auto" as const }, {}]) {
      expect(css(theme)).toContain(":root{color-scheme:light dark;--bg:#f4f4f5")
      expect(css(theme)).toContain("@media (prefers-color-scheme:dark){:root{--bg:#09090b")
    }
  })

  it("pins light or dark without a media query", () => {
    expect(css({ colorScheme: "light" })).toContain(":root{color-scheme:light;--bg:#f4f4f5")
    expect(css({ colorScheme: "dark" })).toContain(":root{color-scheme:dark;--bg:#09090b")
    expect(css({ colorScheme: "dark" })).not.toContain("prefers-color-scheme")
  })

  it("applies brandColor with a readable text colour, or theme.buttonText when valid", () => {
    expect(css({ brandColor: "#ffd700" })).toContain(":root{--brand:#ffd700;--brand-text:#111;}")
    expect(css({ brandColor: "#7c3aed", buttonText: "#fefefe" })).toContain(":root{--brand:#7c3aed;--brand-text:#fefefe;}")
    expect(css({ buttonText: "black" })).toContain(":root{--brand-text:black;}")
  })

  it.each(["red;}body{display:none}", "</style><script>alert(1)</script>", "url(https://evil.example/x)", "red}*{x:y"])(
    "ignores the CSS injection %j in brandColor and buttonText",
    (value) => {
      const style = css({ brandColor: value, buttonText: value })
      expect(style).not.toContain("--brand:" + value)
      expect(style).not.toContain(value)
      expect(style).not.toContain("<")
      expect(style).toBe(css({}))
    },
  )
})
