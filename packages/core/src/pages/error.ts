/**
 * The built-in error page. The error type selects a fixed status and text (see `messages.ts`);
 * unknown types get the default ones and are never echoed.
 */
import type { Theme } from "../types.js"
import { actionUrl, html, layout } from "./html.js"
import { errorText } from "./messages.js"

/** Parameters of `renderErrorPage`. */
export interface ErrorPageParams {
  /** Error type from `?error=`. */
  error: string
  /** `?code=`: picks among the type's fixed texts (see `errorText`), never shown. */
  code?: string
  /** Target of the link back to the sign-in page. */
  signinUrl: string
  theme: Theme
}

/**
 * The error page and its HTTP status: `Configuration` and a failed e-mail send 500,
 * `AccessDenied` and `MissingCSRF` 403, every other type (known or not) 400.
 */
export function renderErrorPage(p: ErrorPageParams): { status: number; html: string } {
  const text = errorText(p.error, p.code)
  const body = html`<h1>${text.title}</h1>
<p>${text.message}</p>
<a class="button" href="${actionUrl(p.signinUrl)}">${text.link ?? "Back to sign in"}</a>`
  return { status: text.status, html: layout({ title: text.title, theme: p.theme, body }) }
}
