/** The built-in two-factor page of a pending sign-in: one form for an authenticator or backup code. */
import { actionUrl, hiddenInputs, html, layout } from "../../kernel/pages/html.js"
import type { Theme } from "../../kernel/types/config.js"

/** Parameters of `renderTwoFactorPage`. */
export interface TwoFactorPageParams {
  /** Where the form posts (`{basePath}/two-factor`). */
  actionUrl: string
  csrfToken: string
  /** `code` of a refused attempt, to say why. */
  error?: string
  theme: Theme
}

const MESSAGES: Record<string, string> = {
  CODE_INVALID: "That code did not work. Enter the current code from your app, or a backup code you have not used.",
  CODE_MISSING: "Enter a code.",
  LIMIT_REACHED: "Too many attempts. Wait a few minutes, then try again.",
}

export function renderTwoFactorPage(p: TwoFactorPageParams): string {
  const message = p.error ? (MESSAGES[p.error] ?? "That did not work. Try again.") : undefined
  const body = html`<h1>Two-step verification</h1>
${message ? html`<p class="error" role="alert">${message}</p>` : ""}
<form method="POST" action="${actionUrl(p.actionUrl)}">
${hiddenInputs({ action: "verify", csrfToken: p.csrfToken })}
<label for="code">Code from your authenticator app, or a backup code</label>
<input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" autofocus required maxlength="64">
<button type="submit" class="button">Verify</button>
</form>`
  return layout({ title: "Two-step verification", theme: p.theme, body })
}
