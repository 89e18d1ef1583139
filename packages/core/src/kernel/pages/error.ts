/**
 * The built-in error page. The error type selects a fixed status and text (see `messages.ts`);
 * unknown types get the default ones and are never echoed.
 */
import type { Theme } from "../types/config.js"
import { actionUrl, html, layout } from "./html.js"
import { errorText, type CapabilityTexts } from "./messages.js"

/** Parameters of `renderErrorPage`. */
export interface ErrorPageParams {
  /** Error type from `?error=`. */
  error: string
  /** `?code=`: picks among the type's fixed texts (see `errorText`), never shown. */
  code?: string
  /** Target of the link back to the sign-in page. */
  signinUrl: string
  theme: Theme
  /** Seconds until a rate-limited user may try again: the page says when (a number, never input). */
  retryAfter?: number
  /** The texts of the capabilities' error types (else they get the default text). */
  texts?: CapabilityTexts
}

/** "in about 3 minutes" / "in 40 seconds". */
function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`
  const minutes = Math.ceil(seconds / 60)
  return `about ${minutes} minutes`
}

/**
 * The error page and its HTTP status: `Configuration` and a failed e-mail send 500,
 * `AccessDenied` and `MissingCSRF` 403, `RateLimited` 429 (503 when its store failed), every other
 * type (known or not) 400.
 */
export function renderErrorPage(p: ErrorPageParams): { status: number; html: string } {
  const text = errorText(p.error, p.code, p.texts)
  const wait = p.retryAfter !== undefined && Number.isFinite(p.retryAfter) ? ` You can try again in ${waitText(Math.max(1, Math.ceil(p.retryAfter)))}.` : ""
  const body = html`<h1>${text.title}</h1>
<p>${text.message}${wait}</p>
<a class="button" href="${actionUrl(p.signinUrl)}">${text.link ?? "Back to sign in"}</a>`
  return { status: text.status, html: layout({ title: text.title, theme: p.theme, body }) }
}
