/**
 * The built-in sign-out confirmation: signing out is a POST with the CSRF token, so a link or an
 * image on another site cannot sign the user out.
 */
import type { Theme } from "../types/config.js"
import { actionUrl, hiddenInputs, html, layout } from "./html.js"

/** Parameters of `renderSignOutPage`. */
export interface SignOutPageParams {
  signoutUrl: string
  csrfToken: string
  /** Where the user goes after signing out (checked again by the `redirect` callback on POST). */
  callbackUrl: string
  theme: Theme
}

/** The sign-out confirmation page as a complete HTML document. */
export function renderSignOutPage(p: SignOutPageParams): string {
  const body = html`<h1>Sign out</h1>
<p>Are you sure you want to sign out?</p>
<form method="POST" action="${actionUrl(p.signoutUrl)}">
${hiddenInputs({ csrfToken: p.csrfToken, callbackUrl: p.callbackUrl })}
<button type="submit" class="button">Sign out</button>
</form>`
  return layout({ title: "Sign out", theme: p.theme, body })
}
