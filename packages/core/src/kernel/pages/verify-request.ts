/**
 * The page shown after an e-mail sign-in link was sent.
 */
import type { Theme } from "../types/config.js"
import { actionUrl, html, layout } from "./html.js"

/** Parameters of `renderVerifyRequestPage`. */
export interface VerifyRequestPageParams {
  /** Host of the application, named so the user knows which site the mail is from. */
  host: string
  theme: Theme
  /** Where "Back to sign in" leads: the app's own sign-in page when configured (`pages.signIn`), else the built-in one. */
  signinUrl?: string
}

/** The "Check your email" page as a complete HTML document. */
export function renderVerifyRequestPage(p: VerifyRequestPageParams): string {
  const body = html`<h1>Check your email</h1>
<p>A sign-in link has been sent to your email address.</p>
<p class="note">Open it on this device to continue to <strong>${p.host}</strong>. You can close this tab.</p>${
    p.signinUrl ? html`
<p class="note"><a href="${actionUrl(p.signinUrl)}">Back to sign in</a></p>` : ""
  }`
  return layout({ title: "Check your email", theme: p.theme, body })
}
