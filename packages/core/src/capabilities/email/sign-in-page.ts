/** An e-mail provider's form on the built-in sign-in page: the address, and a button that sends the link. */
import { actionUrl, hiddenInputs, html } from "../../kernel/pages/html.js"
import { buttonOf, signInButton } from "../../kernel/pages/index.js"
import type { ProviderUrls, SignInPagePart } from "../../kernel/types/capability.js"
import type { EmailConfig } from "../../kernel/types/providers.js"

export function emailPagePart(provider: EmailConfig, urls: ProviderUrls): SignInPagePart {
  const { signinUrl } = urls
  return {
    fields: true,
    // The address names the user: passkey autofill attaches to it.
    userField: true,
    leavesSite: false,
    render: (index, page) => {
      const id = `p${index}-email`
      return html`<form method="POST" action="${actionUrl(signinUrl)}">
${hiddenInputs({ csrfToken: page.csrfToken, callbackUrl: page.callbackUrl })}
<label for="${id}">Email</label>
<input id="${id}" type="email" name="email" autocomplete="${page.autofill ? "email webauthn" : "email"}" required placeholder="email@example.com" value="${page.email ?? ""}">
${signInButton(buttonOf(provider), index, true)}
</form>`
    },
  }
}
