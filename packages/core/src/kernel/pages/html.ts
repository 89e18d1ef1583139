/**
 * HTML building blocks of the built-in pages: escaping, a tagged template that escapes every
 * interpolation unless it is already `SafeHtml`, URL vetting for `href`/`src`/`action`, and the
 * page layout. Pages are built only through `html`, so forgetting to escape is not possible.
 */
import { SafeHtml } from "../types/safe-html.js"
import type { Theme } from "../types/config.js"
import { cssColor, themeCss } from "./theme.js"

export { SafeHtml }

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
}

/**
 * Escapes a value for HTML text and quoted attribute values. `null` and `undefined` become the
 * empty string; other non-strings are converted with `String` first.
 */
export function escapeHtml(s: string): string {
  return String(s ?? "").replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c)
}


type Interpolation = SafeHtml | string | number | false | null | undefined | Interpolation[]

function render(value: Interpolation): string {
  if (value instanceof SafeHtml) return value.value
  if (Array.isArray(value)) return value.map(render).join("")
  if (value === null || value === undefined || value === false) return ""
  return escapeHtml(String(value))
}

/** Tagged template: escapes each interpolation, keeps `SafeHtml` and arrays of it as they are. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? ""
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "")
  })
  return new SafeHtml(out)
}

const CONTROL_CHARS = /[\u0000-\u001f\u007f]/

/**
 * Returns `url` when it is an absolute http(s) URL or a relative reference (which a browser
 * resolves against the page's own http(s) URL), else undefined. Stops `javascript:`, `data:` and
 * friends, including the tab/newline/leading-space spellings the URL parser silently accepts.
 */
export function safeUrl(url: unknown): string | undefined {
  if (typeof url !== "string" || url === "" || url.length > 4096 || CONTROL_CHARS.test(url)) return undefined
  try {
    const { protocol } = new URL(url, "https://base.invalid/")
    return protocol === "https:" || protocol === "http:" ? url : undefined
  } catch {
    return undefined
  }
}

/**
 * For `action` and `href` values the core computes itself: a value that fails `safeUrl` would be
 * a bug or a misconfiguration, and `about:blank` makes the control inert instead of dangerous.
 */
export function actionUrl(url: string): string {
  return safeUrl(url) ?? "about:blank"
}

/** `<input type="hidden">` for each entry. */
export function hiddenInputs(fields: Record<string, string>): SafeHtml {
  return html`${Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}`
}

/** The app's name as the pages show it: trimmed, control characters dropped, at most 60 characters. */
function appName(theme: Theme): string | undefined {
  if (typeof theme.name !== "string") return undefined
  const name = [...theme.name.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim()].slice(0, 60).join("")
  return name === "" ? undefined : name
}

/** The theme's logo (when it is a safe URL) and the app's name, above the card. */
function brand(theme: Theme): SafeHtml | undefined {
  const src = safeUrl(theme.logo)
  const name = appName(theme)
  if (!src && !name) return undefined
  const img = src ? html`<img class="logo" src="${src}" alt="" referrerpolicy="no-referrer">` : ""
  return html`<div class="brand">${img}${name ? html`<span class="app-name">${name}</span>` : ""}</div>`
}

/** A rounded square with a keyhole, in `color`: the pages' icon when the theme has no logo. */
function inlineIcon(color: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${color}"/>` +
    `<circle cx="16" cy="13" r="5" fill="#fff"/><path d="M14 16h4l1.5 9h-7z" fill="#fff"/></svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

/**
 * The page's icon, declared so the browser does not ask the app for `/favicon.ico` (which it may
 * not have): the theme's logo when it is a safe URL, else an inline one in the brand colour. The
 * page's CSP allows it (`headers.ts` reads this `<link>` back).
 */
function icon(theme: Theme): SafeHtml {
  return html`<link rel="icon" href="${safeUrl(theme.logo) ?? inlineIcon(cssColor(theme.brandColor) ?? "#2563eb")}">`
}

export interface LayoutParams {
  title: string
  theme: Theme
  body: SafeHtml
  /** Extra CSS rules, built only from validated values (see `theme.ts`). */
  css?: string[]
  /** A script of ours (never user input) placed at the end of the body; its CSP hash is read from the page. */
  script?: string
}

/**
 * A complete HTML document. `referrer: same-origin` keeps tokens and callback URLs in the page URL
 * (a magic link's token, for one) from leaking to another host, while the page's own form POSTs
 * still carry a real `Origin` (under `no-referrer` browsers send `Origin: null`). Remote logos also
 * carry `referrerpolicy="no-referrer"` themselves.
 */
export function layout({ title, theme = {}, body, css = [], script }: LayoutParams): string {
  const style = new SafeHtml(themeCss(theme, css))
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="robots" content="noindex, nofollow">
<title>${appName(theme) ? `${title} · ${appName(theme)}` : title}</title>
${icon(theme)}
<style>${style}</style>
</head>
<body>
<main class="page">
${brand(theme)}
<div class="card">
${body}
</div>
</main>
${script ? html`<script>${new SafeHtml(script)}</script>
` : ""}</body>
</html>
`.value
}
