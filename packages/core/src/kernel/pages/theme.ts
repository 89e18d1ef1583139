/**
 * The built-in pages' stylesheet and the colour checks that guard it. A theme or provider colour
 * reaches CSS only after `cssColor` has accepted it, and the accepted grammar has no `;`, `{`, `}`,
 * `<`, quotes, backslashes or nested parentheses, so it cannot end a declaration, a rule or the
 * `<style>` element. Everything the pages need is inline: no fonts, scripts or images of ours.
 */
import type { Theme } from "../types/config.js"
import type { OAuthProviderButtonStyles } from "../types/providers.js"

const HEX = /^#(?:[\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})$/i
const NAMED = /^[a-z]{3,24}$/i
const FUNCTIONAL = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([\d\s.,%/+a-z-]{1,80}\)$/i

/** `value` when it is a CSS colour of a safe shape (hex, name, or colour function), else undefined. */
export function cssColor(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const color = value.trim()
  return HEX.test(color) || NAMED.test(color) || FUNCTIONAL.test(color) ? color : undefined
}

function channel(hex: string): number {
  const c = Number.parseInt(hex, 16) / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

/** WCAG relative luminance of a hex colour (alpha ignored), or undefined for other notations. */
function luminance(color: string): number | undefined {
  if (!HEX.test(color)) return undefined
  const digits = color.slice(1)
  const pairs = digits.length <= 4 ? [...digits.slice(0, 3)].map((d) => d + d) : [0, 2, 4].map((i) => digits.slice(i, i + 2))
  const [r = 0, g = 0, b = 0] = pairs.map(channel)
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** White or near-black, whichever contrasts more with `background` (white when unknown). */
export function readableText(background: string): string {
  const l = luminance(background)
  if (l === undefined) return "#fff"
  const onWhite = 1.05 / (l + 0.05)
  const onDark = (l + 0.05) / 0.0556
  return onWhite >= onDark ? "#fff" : "#111"
}

/**
 * Custom properties of one provider button, as a rule for the class `provider-<index>`; empty when
 * the provider has no valid colour. Classes are keyed by index, never by the provider id.
 */
export function providerCss(index: number, style: OAuthProviderButtonStyles | undefined): string {
  const background = cssColor(style?.brandColor) ?? cssColor(style?.bg)
  if (!background) return ""
  const text = cssColor(style?.text) ?? readableText(background)
  // A light button keeps the neutral outline: its own colour would vanish against the card.
  const border = readableText(background) === "#fff" ? `--btn-border:${background}` : "--btn-border:var(--input-border)"
  return `.provider-${index}{--btn-bg:${background};--btn-fg:${text};${border}}`
}

const LIGHT =
  "--bg:#f4f4f5;--card:#fff;--text:#18181b;--muted:#52525b;--border:#e4e4e7;--input:#fff;" +
  "--input-border:#71717a;--brand:#2563eb;--brand-text:#fff;--focus:#1d4ed8;" +
  "--danger-bg:#fef2f2;--danger-text:#991b1b;--danger-border:#fecaca"
const DARK =
  "--bg:#09090b;--card:#18181b;--text:#fafafa;--muted:#a1a1aa;--border:#27272a;--input:#09090b;" +
  "--input-border:#71717a;--brand:#2563eb;--brand-text:#fff;--focus:#93c5fd;" +
  "--danger-bg:#450a0a;--danger-text:#fecaca;--danger-border:#7f1d1d"

const BASE = [
  "*,*::before,*::after{box-sizing:border-box}",
  "body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;" +
    "background:var(--bg);color:var(--text);" +
    'font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}',
  ".page{width:100%;max-width:24rem;padding:2rem 1rem;display:flex;flex-direction:column;align-items:center;gap:1.5rem}",
  // Wider on a desktop screen, so "Sign in with Email and password" stays on one line.
  "@media (min-width:40rem){.page{max-width:28rem}}",
  ".brand{display:flex;align-items:center;gap:.75rem;width:max-content;max-width:100%}",
  ".logo{max-width:9rem;max-height:4.5rem}",
  ".brand:has(.app-name) .logo{height:3rem;width:auto}",
  ".app-name{font-size:1.125rem;font-weight:600;color:var(--text);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}",
  ".card{width:100%;background:var(--card);border:1px solid var(--border);border-radius:.75rem;" +
    "padding:2rem 1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}",
  "h1{margin:0 0 1rem;font-size:1.375rem;line-height:1.3;text-align:center}",
  "p{margin:0 0 1rem;color:var(--muted);text-align:center}",
  "p strong{color:var(--text);overflow-wrap:anywhere}",
  ".providers,form{display:flex;flex-direction:column;gap:.75rem;margin:0}",
  "label{font-weight:500;font-size:.875rem;margin-bottom:-.5rem}",
  "input{width:100%;padding:.625rem .75rem;font:inherit;color:var(--text);background:var(--input);" +
    "border:1px solid var(--input-border);border-radius:.5rem}",
  ".button{display:flex;align-items:center;justify-content:center;gap:.625rem;width:100%;padding:.625rem 1rem;" +
    "font:inherit;font-weight:600;text-decoration:none;cursor:pointer;border-radius:.5rem;" +
    "background:var(--btn-bg,var(--brand));color:var(--btn-fg,var(--brand-text));" +
    "border:1px solid var(--btn-border,var(--btn-bg,var(--brand)))}",
  ".button:hover{filter:brightness(1.1)}",
  ".button img{width:1.25rem;height:1.25rem}",
  ".button span{text-align:center}",
  ".neutral{--btn-bg:var(--card);--btn-fg:var(--text);--btn-border:var(--input-border)}",
  ":focus-visible{outline:3px solid var(--focus);outline-offset:2px}",
  ".divider{display:flex;align-items:center;gap:.75rem;color:var(--muted);font-size:.875rem}",
  '.divider::before,.divider::after{content:"";flex:1;border-top:1px solid var(--border)}',
  ".alert{margin:0 0 1.25rem;padding:.75rem 1rem;border-radius:.5rem;background:var(--danger-bg);" +
    "color:var(--danger-text);border:1px solid var(--danger-border)}",
  ".alert p{margin:0;color:inherit;text-align:left}",
  ".alert p+p{margin-top:.25rem;font-size:.875rem}",
  ".note{font-size:.875rem}",
  "form+.note{margin-top:1rem}",
  ".card>:last-child{margin-bottom:0}",
  "@media (prefers-reduced-motion:no-preference){.button{transition:filter .15s}}",
]

function schemeCss(scheme: Theme["colorScheme"]): string {
  if (scheme === "light") return `:root{color-scheme:light;${LIGHT}}`
  if (scheme === "dark") return `:root{color-scheme:dark;${DARK}}`
  return `:root{color-scheme:light dark;${LIGHT}}@media (prefers-color-scheme:dark){:root{${DARK}}}`
}

function brandCss(theme: Theme): string {
  const brand = cssColor(theme.brandColor)
  const text = cssColor(theme.buttonText) ?? (brand ? readableText(brand) : undefined)
  const declarations = (brand ? `--brand:${brand};` : "") + (text ? `--brand-text:${text};` : "")
  return declarations ? `:root{${declarations}}` : ""
}

/**
 * The whole stylesheet for `theme` plus `extra` rules. `<` is escaped as a last line of defence:
 * no accepted value contains one, and with it gone nothing can close the `<style>` element.
 */
export function themeCss(theme: Theme, extra: readonly string[] = []): string {
  const css = [schemeCss(theme.colorScheme), brandCss(theme), ...BASE, ...extra].filter(Boolean).join("\n")
  return css.replace(/</g, "\\3c ")
}
