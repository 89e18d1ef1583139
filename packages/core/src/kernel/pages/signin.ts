/**
 * The built-in sign-in page: one form per provider, and the reason of a failed attempt. Each form
 * is its sign-in type's part (`SignInTypeDeclaration.page`); this page lays them out, with the
 * building blocks parts share (`signInButton`, `buttonPart`).
 */
import type { OAuthProviderButtonStyles } from "../types/providers.js"
import type { Theme } from "../types/config.js"
import type { SignInPageContext, SignInPagePart } from "../types/capability.js"
import { ANY_FORM_TARGET, type FormTargets } from "./headers.js"
import { actionUrl, hiddenInputs, html, layout, safeUrl, type SafeHtml } from "./html.js"
import { errorText, type CapabilityTexts } from "./messages.js"
import { providerCss } from "./theme.js"

/** A provider as the sign-in page lists it: its button style and its sign-in type's form. */
export interface SignInPageProvider {
  style?: OAuthProviderButtonStyles
  part: SignInPagePart
}

/** Parameters of `renderSignInPage`. */
export interface SignInPageParams {
  providers: SignInPageProvider[]
  csrfToken: string
  callbackUrl: string
  /** Error type from `?error=`; selects a fixed message, never shown itself. */
  error?: string
  /**
   * `?code=`: picks the text of an `EmailSignInError` (refused address or failed send) or a
   * `RateLimited` (too many attempts or the store failing); never shown itself.
   */
  code?: string
  /** Pre-fills the e-mail field. */
  email?: string
  theme: Theme
  /** The texts of the capabilities' error types (else they get the default text). */
  texts?: CapabilityTexts
}

/** What a form's button shows of its provider. */
export interface ButtonProvider {
  readonly name: string
  readonly style?: OAuthProviderButtonStyles
}

/** The button look of `provider` (its name and, where it has one, its `style`). */
export function buttonOf(provider: { name: string }): ButtonProvider {
  const style = (provider as { style?: OAuthProviderButtonStyles }).style
  return style ? { name: provider.name, style } : { name: provider.name }
}

/**
 * A form's submit button. Buttons of forms with fields take the theme's brand colour; redirect
 * buttons are neutral. Either takes the provider's own colour when it has one (the
 * `provider-<index>` rule comes last).
 */
export function signInButton(provider: ButtonProvider, index: number, fields: boolean): SafeHtml {
  const logo = safeUrl(provider.style?.logo)
  const kind = fields ? "" : " neutral"
  return html`<button type="submit" class="button${kind} provider-${index}">${
    logo ? html`<img src="${logo}" alt="" width="20" height="20" referrerpolicy="no-referrer">` : ""
  }<span>Sign in with ${provider.name}</span></button>`
}

/**
 * The plainest part: a button that posts to `signinUrl` (the sign-in type's flow starts there).
 * `leavesSite`: the flow sends the browser to another site (an identity provider).
 */
export function buttonPart(provider: { name: string }, signinUrl: string, leavesSite: boolean): SignInPagePart {
  return {
    fields: false,
    userField: false,
    leavesSite,
    render: (index, page) => html`<form method="POST" action="${actionUrl(signinUrl)}">
${hiddenInputs({ csrfToken: page.csrfToken, callbackUrl: page.callbackUrl })}
${signInButton(buttonOf(provider), index, false)}
</form>`,
  }
}

/** Forms in the given order, with an "or" divider next to each form that has fields. */
function providerList(providers: SignInPageProvider[], page: SignInPageContext): SafeHtml {
  if (providers.length === 0) return html`<p>No sign-in methods are configured.</p>`
  const items = providers.map(({ part }, i) => {
    const divider = i > 0 && (part.fields || providers[i - 1]!.part.fields)
    return html`${divider ? html`<div class="divider">or</div>\n` : ""}${part.render(i, page)}\n`
  })
  return html`<div class="providers">
${items}</div>`
}

/**
 * The reason of a failed attempt, in words. The code (`?code=`) stays in the URL and the server
 * log, where support reads it; on the page it would be jargon ("credentials") to the user.
 */
function errorAlert(error: string | undefined, code: string | undefined, texts: CapabilityTexts | undefined): SafeHtml | undefined {
  if (!error) return undefined
  return html`<div class="alert" role="alert">
<p>${errorText(error, code, texts).message}</p>
</div>
`
}

/**
 * Where the page's form submissions may be redirected (for `pageHeaders`): `targets`, unless a
 * form hands the browser to a provider's site, whose hops nobody here knows (`ANY_FORM_TARGET`).
 */
export function signInFormTargets(providers: readonly SignInPageProvider[], targets: readonly string[]): FormTargets {
  return providers.some(({ part }) => part.leavesSite) ? ANY_FORM_TARGET : targets
}

/** The sign-in page as a complete HTML document. */
export function renderSignInPage(p: SignInPageParams): string {
  const providers = Array.isArray(p.providers) ? p.providers : []
  const autofill = providers.some(({ part }) => part.offersAutofill) && providers.some(({ part }) => part.userField)
  const page: SignInPageContext = { csrfToken: p.csrfToken, callbackUrl: p.callbackUrl, ...(p.email !== undefined ? { email: p.email } : {}), autofill }
  const body = html`<h1>Sign in</h1>
${errorAlert(p.error, p.code, p.texts)}${providerList(providers, page)}`
  const css = providers.map((x, i) => providerCss(i, x.style))
  // One script per kind of form that needs one (every passkey form shares the same).
  const script = [...new Set(providers.flatMap(({ part }) => (part.script ? [part.script] : [])))].join("\n")
  return layout({ title: "Sign in", theme: p.theme, body, css, ...(script ? { script } : {}) })
}
