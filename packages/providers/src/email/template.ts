/**
 * The default sign-in e-mail, as plain text and HTML. Everything that comes from a request or the
 * configuration is escaped for the context it lands in, and colours are accepted only in forms
 * that cannot break out of a CSS declaration.
 */
import type { Theme } from "@authlib/core"

/** What the default e-mail shows. */
export interface EmailTemplateParams {
  /** The sign-in link. */
  url: string
  /** The site name shown to the user: the host of the link. */
  host: string
  /** Colours of the built-in pages; `brandColor` and `buttonText` are used. */
  theme?: Theme
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" }

/** Escapes text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (char) => HTML_ESCAPES[char]!)
}

/** A colour, or the fallback when it is not `#rgb`/`#rrggbb`/`#rrggbbaa` or a plain colour name. */
function safeColor(value: string | undefined, fallback: string): string {
  return value && /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|[a-z]{3,20})$/i.test(value) ? value : fallback
}

/** Removes line breaks and other control characters, which could forge lines in a text e-mail. */
function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")
}

/** Dots in a host keep mail clients from turning the site name into a link of its own. */
function unlinkable(host: string): string {
  return escapeHtml(host).replace(/\./g, "&#8203;.")
}

/** The plain-text version of the default sign-in e-mail. */
export function text({ url, host }: EmailTemplateParams): string {
  return `Sign in to ${oneLine(host)}\n\nOpen this link to sign in:\n${oneLine(url)}\n\nIf you did not ask for this e-mail, you can ignore it.\n`
}

/** The HTML version of the default sign-in e-mail: one button, the link in text below it. */
export function html({ url, host, theme = {} }: EmailTemplateParams): string {
  const brand = safeColor(theme.brandColor, "#346df1")
  const buttonText = safeColor(theme.buttonText, "#ffffff")
  const site = unlinkable(host)
  const href = escapeHtml(url)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Sign in to ${site}</title></head>
<body style="margin:0;padding:24px;background:#f9f9f9;font-family:Helvetica,Arial,sans-serif;color:#444444">
<table role="presentation" width="100%" style="max-width:600px;margin:auto;background:#ffffff;border-radius:10px;padding:24px">
<tr><td align="center" style="font-size:22px;padding-bottom:16px">Sign in to <strong>${site}</strong></td></tr>
<tr><td align="center" style="padding:16px 0">
<a href="${href}" target="_blank" rel="noopener" style="display:inline-block;padding:10px 20px;border-radius:5px;background:${brand};color:${buttonText};font-weight:bold;text-decoration:none">Sign in</a>
</td></tr>
<tr><td style="font-size:13px;padding-top:16px;word-break:break-all">Or paste this link into your browser:<br>${href}</td></tr>
<tr><td align="center" style="font-size:13px;padding-top:16px">If you did not ask for this e-mail, you can ignore it.</td></tr>
</table>
</body></html>
`
}
