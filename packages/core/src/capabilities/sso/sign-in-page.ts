/** The SSO provider's form on the built-in sign-in page: e-mail first, the organization's IdP found by its domain. */
import { actionUrl, hiddenInputs, html } from "../../kernel/pages/html.js"
import { buttonOf, signInButton } from "../../kernel/pages/index.js"
import type { ProviderUrls, SignInPagePart } from "../../kernel/types/capability.js"
import type { SsoConfig } from "./provider.js"

export function ssoPagePart(provider: SsoConfig, urls: ProviderUrls): SignInPagePart {
  return {
    fields: true,
    userField: true,
    // Submitting it sends the browser to the organization's IdP.
    leavesSite: true,
    render: (index, page) => {
      const id = `p${index}-sso-email`
      return html`<form method="POST" action="${actionUrl(urls.signinUrl)}">
${hiddenInputs({ csrfToken: page.csrfToken, callbackUrl: page.callbackUrl })}
<label for="${id}">Work email</label>
<input id="${id}" type="email" name="email" autocomplete="email" required placeholder="you@company.com" value="${page.email ?? ""}">
${signInButton(buttonOf(provider), index, true)}
</form>`
    },
  }
}
