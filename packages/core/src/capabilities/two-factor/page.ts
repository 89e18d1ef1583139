/**
 * The built-in pages of a pending sign-in: the two-factor step (a form for an authenticator or
 * backup code, and a passkey button when the user has a passkey); the enrolment that
 * `twoFactor.required` forces (a QR code and the secret to type in, and a form for the first code);
 * and the backup codes shown once after that enrolment.
 */
import { actionUrl, hiddenInputs, html, layout, SafeHtml } from "../../kernel/pages/html.js"
import { PASSKEY_SCRIPT } from "../../kernel/pages/passkey-script.js"
import type { Theme } from "../../kernel/types/config.js"
import type { TotpEnrollment } from "./manage.js"
import { qrCodeSvg } from "./qr-svg.js"

/** Parameters of `renderTwoFactorPage`. */
export interface TwoFactorPageParams {
  /** Where the form posts (`{basePath}/two-factor`). */
  actionUrl: string
  csrfToken: string
  /** `code` of a refused attempt, to say why. */
  error?: string
  theme: Theme
  /** The user has a passkey: the options URL (`{basePath}/webauthn-options/:provider`) and the provider id. */
  passkey?: { optionsUrl: string; provider: string }
  /** A sign-in held to enrol (`twoFactor.required`): the enrolment to show instead of the code form. */
  enrolment?: TotpEnrollment
  /** The app signs in with e-mail links: the TOTP lock's message offers one. */
  emailSignIn?: boolean
}

const MESSAGES: Record<string, string> = {
  CODE_INVALID: "That code did not work. Enter the current code from your app, or a backup code you have not used.",
  CODE_MISSING: "Enter a code.",
  CODE_USED: "That code was already used. Wait for the next code in your app, or use a backup code.",
  LIMIT_REACHED: "Too many attempts. Wait a few minutes, then try again.",
  SAME_FACTOR: "You signed in with a passkey: enter the code from your authenticator app, or a backup code.",
}

/** Passkey refusals all read the same to a person: the code stays in the URL and the log. */
const PASSKEY_MESSAGE = "The passkey could not be used. Try again, or enter a code."

/** What to do about the TOTP lock: every way on that still works. */
function lockedMessage(p: TwoFactorPageParams): string {
  const link = p.emailSignIn ? ", or sign in again with a link sent to your e-mail address" : ""
  return `Too many wrong codes from your authenticator app: its codes are blocked for this account. Enter one of your backup codes instead${link}. If you have none, contact the site's support to unlock it.`
}

function messageOf(p: TwoFactorPageParams): string | undefined {
  const code = p.error
  if (!code) return undefined
  if (code === "TOTP_LOCKED") return lockedMessage(p)
  return MESSAGES[code] ?? (/^(CHALLENGE|CREDENTIAL|RESPONSE|ORIGIN|RP_ID|SIGNATURE|COUNTER|USER_VERIFICATION|VERIFICATION)_/.test(code) ? PASSKEY_MESSAGE : "That did not work. Try again.")
}

/** The passkey form: the bundled passkey script fetches the options, prompts and posts `verify-passkey`. */
function passkeyForm(p: TwoFactorPageParams, passkey: NonNullable<TwoFactorPageParams["passkey"]>): SafeHtml {
  return html`<div class="divider">or</div>
<form method="POST" action="${actionUrl(p.actionUrl)}" data-passkey-options="${actionUrl(passkey.optionsUrl)}" data-passkey-submit="verify-passkey">
${hiddenInputs({ csrfToken: p.csrfToken, provider: passkey.provider, action: "", data: "" })}
<button type="submit" value="authenticate" class="button neutral"><span>Use a passkey</span></button>
<p class="alert" role="alert" data-passkey-error hidden></p>
</form>`
}

function codeForm(p: TwoFactorPageParams): SafeHtml {
  return html`<form method="POST" action="${actionUrl(p.actionUrl)}">
${hiddenInputs({ action: "verify", csrfToken: p.csrfToken })}
<label for="code">Code from your authenticator app, or a backup code</label>
<input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" autofocus required maxlength="64">
<button type="submit" class="button">Verify</button>
</form>`
}

function enrolmentForm(p: TwoFactorPageParams, enrolment: TotpEnrollment): SafeHtml {
  // Our own SVG (escaped title, no script or style): markup, not text.
  const qr = new SafeHtml(qrCodeSvg(enrolment.uri, { title: "QR code to add this account to your authenticator app" }))
  return html`<p>This account needs two-step verification. Scan the code with an authenticator app, or type in the key, then enter the code the app shows.</p>
<div class="qr">${qr}</div>
<p>Key: <code data-secret>${enrolment.secret}</code></p>
<form method="POST" action="${actionUrl(p.actionUrl)}">
${hiddenInputs({ action: "totp-confirm", csrfToken: p.csrfToken })}
<label for="code">Code from your authenticator app</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" autofocus required maxlength="64">
<button type="submit" class="button">Turn on and continue</button>
</form>`
}

/** The way out: ends the pending sign-in (its cookie cleared) and goes back to the sign-in page. */
function cancelForm(p: TwoFactorPageParams): SafeHtml {
  return html`<form method="POST" action="${actionUrl(p.actionUrl)}" class="cancel">
${hiddenInputs({ action: "cancel", csrfToken: p.csrfToken })}
<button type="submit" class="button neutral">Cancel and sign in another way</button>
</form>`
}

export function renderTwoFactorPage(p: TwoFactorPageParams): string {
  const message = messageOf(p)
  const body = html`<h1>Two-step verification</h1>
${message ? html`<p class="error" role="alert">${message}</p>` : ""}
${p.enrolment ? enrolmentForm(p, p.enrolment) : codeForm(p)}
${!p.enrolment && p.passkey ? passkeyForm(p, p.passkey) : ""}
${cancelForm(p)}`
  const script = !p.enrolment && p.passkey ? { script: PASSKEY_SCRIPT } : {}
  return layout({ title: "Two-step verification", theme: p.theme, body, ...script })
}

/** Parameters of `renderBackupCodesPage`. */
export interface BackupCodesPageParams {
  backupCodes: readonly string[]
  /** Where the user goes on: the sign-in's callback URL (or `pages.newUser`). */
  continueUrl: string
  theme: Theme
}

/** The backup codes of a just-confirmed enrolment, shown this once, and the way on. */
export function renderBackupCodesPage(p: BackupCodesPageParams): string {
  const body = html`<h1>Two-step verification is on</h1>
<p>Keep these backup codes somewhere safe. Each works once, if you lose your authenticator app. They are not shown again.</p>
<ul class="backup-codes">
${p.backupCodes.map((code) => html`<li><code>${code}</code></li>\n`)}</ul>
<a class="button" href="${actionUrl(p.continueUrl)}">Continue</a>`
  return layout({ title: "Backup codes", theme: p.theme, body })
}
