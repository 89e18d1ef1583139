/**
 * The browser side of passkeys on the built-in sign-in page, bundled with @simplewebauthn/browser
 * into `src/kernel/pages/passkey-script.ts` by `scripts/bundle-passkey-script.mjs` (run
 * `pnpm --filter @authlib/core bundle:passkey` after editing; a test fails while it is stale).
 *
 * Each `form[data-passkey-options]` gets: on submit, the options from the URL in that attribute,
 * the browser's passkey prompt, and a normal form POST of `action` + `data` (with the CSRF token
 * the form already carries) to the provider's callback; with `data-passkey-autofill`, passkey
 * autofill (conditional UI) on inputs whose autocomplete includes `webauthn`. The two-factor page
 * uses the same form for a passkey as second factor (`data-passkey-submit="verify-passkey"`).
 */
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, startRegistration, WebAuthnAbortService } from "@simplewebauthn/browser"
import { describePasskeyError, passkeyFailure, type PasskeyFailure } from "./passkey-errors.js"

type Action = "register" | "authenticate"

/**
 * Shows `failure` in the form's alert, right under its buttons; after a button press also scrolls
 * it into view, since on a long page the passkey form can sit below the fold (not for autofill,
 * which runs on load: the page must not jump). The code goes in `data-code` (for scripts and
 * tests), never in the text.
 */
function show(form: HTMLFormElement, failure: PasskeyFailure, scroll = false): void {
  const alert = form.querySelector<HTMLElement>("[data-passkey-error]")
  if (!alert) return
  alert.textContent = failure.message
  alert.dataset.code = failure.code
  alert.hidden = false
  if (scroll) alert.scrollIntoView({ block: "nearest" })
}

async function optionsFor(form: HTMLFormElement, action: Action | undefined): Promise<{ action: Action; options: any }> {
  const url = new URL(form.dataset.passkeyOptions!, location.href)
  if (action) url.searchParams.set("action", action)
  const res = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } })
  const body = await res.json()
  if (!res.ok) throw Object.assign(new Error("options"), { name: "OptionsError", code: body?.code })
  return body
}

/** Posts the answer; `data-passkey-submit` names the posted action instead (the two-factor page's `verify-passkey`). */
function submit(form: HTMLFormElement, action: Action, data: unknown): void {
  ;(form.elements.namedItem("action") as HTMLInputElement).value = form.dataset.passkeySubmit || action
  ;(form.elements.namedItem("data") as HTMLInputElement).value = JSON.stringify(data)
  form.submit()
}

async function ceremony(form: HTMLFormElement, asked: Action | undefined, autofill: boolean): Promise<void> {
  const { action, options } = await optionsFor(form, asked)
  const data =
    action === "authenticate"
      ? await startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill })
      : await startRegistration({ optionsJSON: options })
  submit(form, action, data)
}

function failed(form: HTMLFormElement, err: unknown, scroll: boolean): void {
  const failure = describePasskeyError(err)
  if (failure) show(form, failure, scroll)
}

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-passkey-options]")) {
  if (!browserSupportsWebAuthn()) {
    show(form, passkeyFailure("PASSKEYS_UNSUPPORTED"))
    form.querySelectorAll("button").forEach((b) => (b.disabled = true))
    continue
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null
    WebAuthnAbortService.cancelCeremony()
    ceremony(form, (submitter?.value as Action | undefined) || "authenticate", false).catch((err) => failed(form, err, true))
  })
  if (form.dataset.passkeyAutofill !== undefined) {
    browserSupportsWebAuthnAutofill()
      .then((ok) => (ok ? ceremony(form, "authenticate", true) : undefined))
      .catch((err) => failed(form, err, false))
  }
}
