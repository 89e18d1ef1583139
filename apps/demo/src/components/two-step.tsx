/**
 * The account page's "Two-step verification": turn it on with an authenticator app (a QR code and
 * the secret to type, then a first code), the 10 backup codes shown once, the status, new backup
 * codes, turning it off. Every change needs a current code; core checks it (and counts the tries).
 * Each change that went through says so; turning it off asks first.
 * The loader and actions are re-exported by the route (Qwik City runs them from there).
 */
import { $, component$, useSignal, type Signal } from "@builder.io/qwik"
import { Form, routeAction$, routeLoader$, z, zod$ } from "@builder.io/qwik-city"
import {
  AuthError,
  confirmTotpEnrollment,
  disableTwoFactorSignIn,
  getTwoFactorStatus,
  RateLimited,
  rateLimitedMessage,
  ReauthenticationRequired,
  regenerateTwoFactorBackupCodes,
  startTotpEnrollment,
} from "@authlib/qwik"
import { confirmFirst } from "./confirm"

/** Whether two-step verification is on, and how many backup codes are left. */
export const useTwoFactorStatus = routeLoader$((ev) => getTwoFactorStatus(ev))

/** Core's refusal as a sentence for this page; anything else is a real failure. */
function refusal(err: unknown): string {
  if (err instanceof RateLimited) return rateLimitedMessage(err)
  if (err instanceof ReauthenticationRequired) return "Turning this on needs a recent sign-in: sign out, sign in again, then set it up."
  if (!(err instanceof AuthError)) throw err
  if (err.code === "CODE_INVALID") return "That code did not work. Enter the current code from your app, or a backup code you have not used."
  if (err.code === "CODE_USED") return "That code was already used. Wait for the next code in your app, or use a backup code."
  if (err.code === "CODE_MISSING") return "Enter a code."
  if (err.code === "ALREADY_ENABLED") return "Two-step verification is already on."
  if (err.code === "NOT_ENROLLED") return "Start again: scan the new QR code."
  return "That did not work. Reload the page and try again."
}

const codeInput = zod$({ code: z.string() })

/** A new secret, not in force until a code from the app confirms it. */
export const useStartTwoFactor = routeAction$(async (_form, ev) => {
  try {
    const { secret, qrSvg } = await startTotpEnrollment(ev)
    return { secret, qrSvg }
  } catch (err) {
    return ev.fail(409, { message: refusal(err) })
  }
})

export const useConfirmTwoFactor = routeAction$(async (form, ev) => {
  try {
    const { backupCodes } = await confirmTotpEnrollment(ev, { code: form.code })
    return { backupCodes, message: "Two-step verification is on: sign-in now also asks for a code from your app. Save your backup codes below." }
  } catch (err) {
    return ev.fail(400, { message: refusal(err) })
  }
}, codeInput)

export const useNewBackupCodes = routeAction$(async (form, ev) => {
  try {
    const { backupCodes } = await regenerateTwoFactorBackupCodes(ev, { code: form.code })
    return { backupCodes, message: "New backup codes: the old ones no longer work. Save these below." }
  } catch (err) {
    return ev.fail(400, { message: refusal(err) })
  }
}, codeInput)

export const useDisableTwoFactor = routeAction$(async (form, ev) => {
  try {
    await disableTwoFactorSignIn(ev, { code: form.code })
    return { disabled: true, message: "Two-step verification is off: sign-in no longer asks for a code, and your backup codes no longer work." }
  } catch (err) {
    return ev.fail(400, { message: refusal(err) })
  }
}, codeInput)

/** A one-field form for a current code (from the app or a backup code). */
const CodeField = component$((props: { id: string; label: string }) => (
  <>
    <label for={props.id}>{props.label}</label>
    <input id={props.id} name="code" type="text" inputMode="text" autoComplete="one-time-code" required maxLength={64} />
  </>
))

/** The backup codes of the last change, shown this once. */
const BackupCodes = component$((props: { codes: Signal<string[]> }) => (
  <div class="backup-codes" role="region" aria-label="Backup codes">
    <p>
      <strong>Save these backup codes now:</strong> each signs you in once if your phone is not at hand. They are not shown again.
    </p>
    <ul class="backup-code-list">
      {props.codes.value.map((c) => (
        <li key={c}>
          <code>{c}</code>
        </li>
      ))}
    </ul>
    <button type="button" class="button small" onClick$={() => navigator.clipboard?.writeText(props.codes.value.join("\n"))}>
      Copy the codes
    </button>
  </div>
))

/** What an action answered: codes to show (once), what happened or a refusal to say, or neither. */
type Answer = { backupCodes?: string[]; failed?: boolean; message?: string } | undefined

export const TwoStep = component$(() => {
  const status = useTwoFactorStatus()
  const start = useStartTwoFactor()
  const confirm = useConfirmTwoFactor()
  const renew = useNewBackupCodes()
  const disable = useDisableTwoFactor()
  // What the last completed step asks to show: the enrolment, new codes (this once), a refusal.
  const enrolling = useSignal(false)
  const codes = useSignal<string[]>([])
  const failure = useSignal("")
  const notice = useSignal("")
  const done = $((answer: Answer) => {
    failure.value = answer?.failed ? (answer.message ?? "") : ""
    notice.value = answer && !answer.failed ? (answer.message ?? "") : ""
    if (answer?.backupCodes) codes.value = answer.backupCodes
  })
  const enrollment = enrolling.value && !status.value.enabled && start.value && !start.value.failed ? start.value : undefined
  return (
    <section aria-labelledby="two-step-title" class="two-step">
      <h2 id="two-step-title">Two-step verification</h2>
      <p class="muted">
        After your password, an e-mail link or the Demo IdP, sign-in also asks for a code from an authenticator app, or one of your passkeys. A
        passkey sign-in counts as both steps.
      </p>
      {failure.value && (
        <p class="alert" role="alert">
          {failure.value}
        </p>
      )}
      {notice.value && (
        <p class="notice" role="status">
          {notice.value}
        </p>
      )}
      {codes.value.length > 0 && <BackupCodes codes={codes} />}
      {status.value.enabled ? (
        <>
          <p class="two-step-status">
            <strong>On</strong> · {status.value.backupCodesLeft} backup code{status.value.backupCodesLeft === 1 ? "" : "s"} left
          </p>
          <div class="two-step-forms">
            <Form action={renew} class="stack" onSubmitCompleted$={(e) => done(e.detail.value)}>
              <CodeField id="renew-code" label="Current code, for new backup codes" />
              <button type="submit" class="button small">
                New backup codes
              </button>
            </Form>
            <Form
              action={disable}
              class="stack"
              onSubmitCompleted$={async (e) => {
                await done(e.detail.value)
                if (e.detail.value.disabled) codes.value = []
              }}
            >
              <CodeField id="disable-code" label="Current code, to turn it off" />
              <button
                type="submit"
                class="button small"
                data-confirm="Turn off two-step verification? Sign-in will no longer ask for a code, and your backup codes will stop working."
                onClick$={confirmFirst}
              >
                Turn off two-step verification
              </button>
            </Form>
          </div>
        </>
      ) : enrollment ? (
        <div class="enrollment">
          <div class="qr" dangerouslySetInnerHTML={enrollment.qrSvg} />
          <div>
            <p>Scan the QR code with your authenticator app, or type this key into it:</p>
            <p>
              <code class="totp-secret" aria-label="Secret key">
                {enrollment.secret}
              </code>
            </p>
            <Form
              action={confirm}
              class="stack"
              onSubmitCompleted$={async (e) => {
                await done(e.detail.value)
                if (e.detail.value.backupCodes) enrolling.value = false
              }}
            >
              <CodeField id="first-code" label="The 6-digit code your app shows" />
              <button type="submit" class="button primary">
                Turn on
              </button>
            </Form>
          </div>
        </div>
      ) : (
        <>
          <p class="two-step-status">Off.</p>
          <Form
            action={start}
            onSubmitCompleted$={async (e) => {
              await done(e.detail.value)
              enrolling.value = !e.detail.value.failed
            }}
          >
            <button type="submit" class="button primary">
              Set up two-step verification
            </button>
          </Form>
        </>
      )}
    </section>
  )
})
