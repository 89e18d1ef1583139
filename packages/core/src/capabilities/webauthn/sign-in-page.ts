/**
 * A passkey provider's form on the built-in sign-in page: the page's script fetches the options,
 * runs the browser's prompt and submits this form with `action` and `data`; the POST carries the
 * CSRF token like every other form. With conditional UI on, the prompt also attaches to a field
 * of the page that names the user (autofill).
 */
import { actionUrl, hiddenInputs, html } from "../../kernel/pages/html.js"
import { PASSKEY_SCRIPT } from "../../kernel/pages/passkey-script.js"
import type { ProviderUrls, SignInPagePart } from "../../kernel/types/capability.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"

export function passkeyPagePart(provider: WebAuthnConfig, urls: ProviderUrls): SignInPagePart {
  const { name } = provider
  const { callbackUrl } = urls
  const optionsUrl = `${urls.actionBase}/webauthn-options/${encodeURIComponent(provider.id)}`
  const autofill = provider.enableConditionalUI !== false
  const register = provider.allowNewAccounts === true
  return {
    fields: false,
    userField: false,
    leavesSite: false,
    offersAutofill: autofill,
    script: PASSKEY_SCRIPT,
    render: (index, page) => html`<form method="POST" action="${actionUrl(callbackUrl)}" data-passkey-options="${actionUrl(optionsUrl)}"${
      autofill && page.autofill ? html` data-passkey-autofill` : ""
    }>
${hiddenInputs({ csrfToken: page.csrfToken, callbackUrl: page.callbackUrl, action: "", data: "" })}
<button type="submit" value="authenticate" class="button neutral provider-${index}"><span>Sign in with ${name}</span></button>${
      register ? html`
<button type="submit" value="register" class="button neutral"><span>Create an account with a passkey</span></button>` : ""
    }
<p class="alert" role="alert" data-passkey-error hidden></p>
</form>`,
  }
}
