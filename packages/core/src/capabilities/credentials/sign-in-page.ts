/**
 * A credentials provider's form on the built-in sign-in page: one field per declared credential,
 * posted straight to its callback (credentials have no start step).
 */
import { actionUrl, hiddenInputs, html, type SafeHtml } from "../../kernel/pages/html.js"
import { buttonOf, signInButton } from "../../kernel/pages/index.js"
import type { ProviderUrls, SignInPagePart } from "../../kernel/types/capability.js"
import type { CredentialInput, CredentialsConfig } from "../../kernel/types/providers.js"

/** Input types a credentials field may use; anything else renders as `text`. */
const INPUT_TYPES = new Set([
  "text", "password", "email", "tel", "number", "url", "search", "date", "datetime-local", "month", "time", "week",
])

/**
 * `username` or `email` when a credentials field names the user: by its autocomplete, or (without
 * one) by its name. Passkey autofill needs such a field on the page.
 */
function userFieldToken(name: string, input: CredentialInput): string | undefined {
  const token = input.autocomplete ?? (name === "username" || name === "email" ? name : undefined)
  return token === "username" || token === "email" ? token : undefined
}

function credentialField(name: string, input: CredentialInput, id: string, autofill: boolean): SafeHtml {
  const type = input.type && INPUT_TYPES.has(input.type) ? input.type : "text"
  const own = input.autocomplete ?? (type === "password" ? "current-password" : undefined)
  const user = userFieldToken(name, input)
  // Passkey autofill attaches to a user-name field (see `userFieldToken`).
  const autocomplete = autofill && user ? `${user} webauthn` : own
  return html`<label for="${id}">${input.label ?? name}</label>
<input id="${id}" type="${type}" name="${name}"${
    input.placeholder ? html` placeholder="${input.placeholder}"` : ""
  }${input.value !== undefined ? html` value="${input.value}"` : ""}${
    autocomplete ? html` autocomplete="${autocomplete}"` : ""
  }${input.required ? html` required` : ""}>
`
}

export function credentialsPagePart(provider: CredentialsConfig, urls: ProviderUrls): SignInPagePart {
  const { callbackUrl } = urls
  const inputs = Object.entries((provider as { credentials?: Record<string, CredentialInput | undefined> }).credentials ?? {})
  return {
    fields: true,
    userField: inputs.some(([name, input]) => userFieldToken(name, input ?? {}) !== undefined),
    leavesSite: false,
    render: (index, page) => {
      const fields = inputs.map(([name, input], j) => credentialField(name, input ?? {}, `p${index}-f${j}`, page.autofill))
      return html`<form method="POST" action="${actionUrl(callbackUrl)}">
${hiddenInputs({ csrfToken: page.csrfToken, callbackUrl: page.callbackUrl })}
${fields}${signInButton(buttonOf(provider), index, true)}
</form>`
    },
  }
}
