/**
 * The page a magic link opens. Mail scanners pre-fetch links with GET; the token is consumed
 * only by this page's POST (with the CSRF token), so a scanner's visit leaves the link usable.
 * No script submits the form: a scanner that runs scripts would otherwise consume the link.
 */
import type { Theme } from "../types/config.js"
import { actionUrl, hiddenInputs, html, layout } from "./html.js"

/** Parameters of `renderEmailConfirmPage`. */
export interface EmailConfirmPageParams {
  /** Where the form posts (the e-mail provider's callback URL). */
  actionUrl: string
  csrfToken: string
  /** Hidden inputs carried to `actionUrl` (for example `token` and `email`). */
  fields: Record<string, string>
  /** The address being signed in, shown to the user. */
  email: string
  theme: Theme
}

/** The confirm page as a complete HTML document. */
export function renderEmailConfirmPage(p: EmailConfirmPageParams): string {
  // csrfToken comes last and from the caller's parameter alone: a field of the same name is dropped.
  const { csrfToken: _dropped, ...fields } = p.fields ?? {}
  const body = html`<h1>Confirm sign in</h1>
<p>Continue as <strong>${p.email}</strong>?</p>
<form method="POST" action="${actionUrl(p.actionUrl)}">
${hiddenInputs({ ...fields, csrfToken: p.csrfToken })}
<button type="submit" class="button">Sign in</button>
</form>
<p class="note">This step keeps automated link scanners from using your sign-in link.</p>`
  return layout({ title: "Confirm sign in", theme: p.theme, body })
}
