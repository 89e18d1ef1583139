/**
 * The built-in sign-in page: one form per provider, and the reason of a failed attempt.
 */
import type { CredentialInput, OAuthProviderButtonStyles, ProviderType } from "../types/providers.js"
import type { Theme } from "../types/config.js"
import { ANY_FORM_TARGET, type FormTargets } from "./headers.js"
import { actionUrl, hiddenInputs, html, layout, safeUrl, type SafeHtml } from "./html.js"
import { errorText } from "./messages.js"
import { PASSKEY_SCRIPT } from "./passkey-script.js"
import { providerCss } from "./theme.js"

/** A provider as the sign-in page lists it. */
export interface SignInPageProvider {
  id: string
  name: string
  type: ProviderType
  signinUrl: string
  callbackUrl: string
  style?: OAuthProviderButtonStyles
  credentials?: Record<string, CredentialInput>
  /** Passkey providers: where the options come from, and which prompts the page offers. */
  webauthn?: { optionsUrl: string; autofill: boolean; register: boolean }
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
}

/** Input types a credentials field may use; anything else renders as `text`. */
const INPUT_TYPES = new Set([
  "text", "password", "email", "tel", "number", "url", "search", "date", "datetime-local", "month", "time", "week",
])

const hasInputs = (provider: SignInPageProvider | undefined) =>
  provider?.type === "email" || provider?.type === "credentials"

interface Context {
  csrfToken: string
  callbackUrl: string
  email?: string
  /** A passkey provider offers autofill and the page has a user-name field, whose autocomplete says `webauthn`. */
  autofill?: boolean
}

/**
 * Buttons of forms with fields take the theme's brand colour; redirect buttons are neutral. Either
 * takes the provider's own colour when it has one (the `provider-<index>` rule comes last).
 */
function submitButton(provider: SignInPageProvider, index: number): SafeHtml {
  const logo = safeUrl(provider.style?.logo)
  const kind = hasInputs(provider) ? "" : " neutral"
  return html`<button type="submit" class="button${kind} provider-${index}">${
    logo ? html`<img src="${logo}" alt="" width="20" height="20" referrerpolicy="no-referrer">` : ""
  }<span>Sign in with ${provider.name}</span></button>`
}

function redirectForm(provider: SignInPageProvider, index: number, ctx: Context): SafeHtml {
  return html`<form method="POST" action="${actionUrl(provider.signinUrl)}">
${hiddenInputs({ csrfToken: ctx.csrfToken, callbackUrl: ctx.callbackUrl })}
${submitButton(provider, index)}
</form>`
}

function emailForm(provider: SignInPageProvider, index: number, ctx: Context): SafeHtml {
  const id = `p${index}-email`
  return html`<form method="POST" action="${actionUrl(provider.signinUrl)}">
${hiddenInputs({ csrfToken: ctx.csrfToken, callbackUrl: ctx.callbackUrl })}
<label for="${id}">Email</label>
<input id="${id}" type="email" name="email" autocomplete="${ctx.autofill ? "email webauthn" : "email"}" required placeholder="email@example.com" value="${ctx.email ?? ""}">
${submitButton(provider, index)}
</form>`
}

/**
 * `username` or `email` when a credentials field names the user: by its autocomplete, or (without
 * one) by its name. Passkey autofill needs such a field on the page.
 */
function userFieldToken(name: string, input: CredentialInput): string | undefined {
  const token = input.autocomplete ?? (name === "username" || name === "email" ? name : undefined)
  return token === "username" || token === "email" ? token : undefined
}

const hasUserField = (provider: SignInPageProvider) =>
  provider.type === "email" || (provider.type === "credentials" && Object.entries(provider.credentials ?? {}).some(([name, input]) => userFieldToken(name, input ?? {})))

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

function credentialsForm(provider: SignInPageProvider, index: number, ctx: Context): SafeHtml {
  const fields = Object.entries(provider.credentials ?? {}).map(([name, input], j) =>
    credentialField(name, input ?? {}, `p${index}-f${j}`, ctx.autofill === true),
  )
  return html`<form method="POST" action="${actionUrl(provider.callbackUrl)}">
${hiddenInputs({ csrfToken: ctx.csrfToken, callbackUrl: ctx.callbackUrl })}
${fields}${submitButton(provider, index)}
</form>`
}

/**
 * A passkey provider: the page's script fetches the options, runs the browser's prompt and submits
 * this form with `action` and `data`; the POST carries the CSRF token like every other form.
 */
function passkeyForm(provider: SignInPageProvider, index: number, ctx: Context): SafeHtml {
  const passkey = provider.webauthn!
  return html`<form method="POST" action="${actionUrl(provider.callbackUrl)}" data-passkey-options="${actionUrl(passkey.optionsUrl)}"${
    passkey.autofill && ctx.autofill ? html` data-passkey-autofill` : ""
  }>
${hiddenInputs({ csrfToken: ctx.csrfToken, callbackUrl: ctx.callbackUrl, action: "", data: "" })}
<button type="submit" value="authenticate" class="button neutral provider-${index}"><span>Sign in with ${provider.name}</span></button>${
    passkey.register ? html`
<button type="submit" value="register" class="button neutral"><span>Create an account with a passkey</span></button>` : ""
  }
<p class="alert" role="alert" data-passkey-error hidden></p>
</form>`
}

function providerForm(provider: SignInPageProvider, index: number, ctx: Context): SafeHtml {
  if (provider.webauthn) return passkeyForm(provider, index, ctx)
  if (provider.type === "email") return emailForm(provider, index, ctx)
  if (provider.type === "credentials") return credentialsForm(provider, index, ctx)
  return redirectForm(provider, index, ctx)
}

/** Forms in the given order, with an "or" divider next to each form that has fields. */
function providerList(providers: SignInPageProvider[], ctx: Context): SafeHtml {
  if (providers.length === 0) return html`<p>No sign-in methods are configured.</p>`
  const items = providers.map((provider, i) => {
    const divider = i > 0 && (hasInputs(provider) || hasInputs(providers[i - 1]))
    return html`${divider ? html`<div class="divider">or</div>\n` : ""}${providerForm(provider, i, ctx)}\n`
  })
  return html`<div class="providers">
${items}</div>`
}

/**
 * The reason of a failed attempt, in words. The code (`?code=`) stays in the URL and the server
 * log, where support reads it; on the page it would be jargon ("credentials") to the user.
 */
function errorAlert(error: string | undefined, code: string | undefined): SafeHtml | undefined {
  if (!error) return undefined
  return html`<div class="alert" role="alert">
<p>${errorText(error, code).message}</p>
</div>
`
}

/**
 * Where the page's form submissions may be redirected (for `pageHeaders`): `targets`, unless a
 * form hands the browser to a provider's site, whose hops nobody here knows (`ANY_FORM_TARGET`).
 */
export function signInFormTargets(providers: readonly SignInPageProvider[], targets: readonly string[]): FormTargets {
  return providers.some((provider) => provider.type === "oauth" || provider.type === "oidc") ? ANY_FORM_TARGET : targets
}

/** The sign-in page as a complete HTML document. */
export function renderSignInPage(p: SignInPageParams): string {
  const providers = Array.isArray(p.providers) ? p.providers : []
  const passkeys = providers.filter((x) => x.webauthn)
  const autofill = passkeys.some((x) => x.webauthn!.autofill) && providers.some(hasUserField)
  const ctx: Context = { csrfToken: p.csrfToken, callbackUrl: p.callbackUrl, email: p.email, autofill }
  const body = html`<h1>Sign in</h1>
${errorAlert(p.error, p.code)}${providerList(providers, ctx)}`
  const css = providers.map((x, i) => providerCss(i, x.style))
  return layout({ title: "Sign in", theme: p.theme, body, css, ...(passkeys.length ? { script: PASSKEY_SCRIPT } : {}) })
}
