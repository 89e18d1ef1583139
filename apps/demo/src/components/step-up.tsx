/**
 * "Confirm it is you": the account page's step-up. A change to the ways in (adding, renaming or
 * deleting a passkey, unlinking an account) needs a second factor verified in the last few minutes
 * (`twoFactor.freshAge`); core refuses it with `ReauthenticationRequired`. This form takes a code
 * from the authenticator app or a backup code (`stepUpTwoFactor`), or a passkey (`stepUpWithPasskey`),
 * and then the section that asked retries the change. The action is re-exported by the route.
 */
import { $, component$, useSignal, type QRL } from "@builder.io/qwik"
import { Form, routeAction$, z, zod$ } from "@builder.io/qwik-city"
import { AuthError, RateLimited, rateLimitedMessage, ReauthenticationRequired, stepUpTwoFactor } from "@authlib/qwik"
import { stepUpWithPasskey } from "@authlib/qwik/passkey"

/** Whether a refusal asks for a step-up (rather than saying no). */
export const needsStepUp = (err: unknown): boolean => err instanceof ReauthenticationRequired

/** Whether an action answered that it needs a step-up (`ev.fail(403, { stepUp: true, ... })`). */
export const askedStepUp = (answer: object | undefined): boolean => answer !== undefined && "stepUp" in answer && answer.stepUp === true

/** A code (TOTP or backup) proves the second factor again; the session cookie is re-issued. */
export const useStepUp = routeAction$(
  async (form, ev) => {
    try {
      await stepUpTwoFactor(ev, { code: form.code })
      return { verified: true }
    } catch (err) {
      if (err instanceof RateLimited) return ev.fail(429, { message: rateLimitedMessage(err) })
      if (!(err instanceof AuthError)) throw err
      if (err.code === "CODE_MISSING") return ev.fail(400, { message: "Enter a code." })
      if (err.code === "CODE_USED") return ev.fail(400, { message: "That code was already used. Wait for the next code in your app, or use a backup code." })
      return ev.fail(400, { message: "That code did not work. Enter the current code from your app, or a backup code you have not used." })
    }
  },
  zod$({ code: z.string() }),
)

/** The step-up form; `onVerified$` runs once the session has a fresh second factor (retry the change there). */
export const StepUp = component$((props: { onVerified$: QRL<() => unknown> }) => {
  const stepUp = useStepUp()
  const passkeyFailure = useSignal("")
  const usePasskey = $(async () => {
    passkeyFailure.value = ""
    const result = await stepUpWithPasskey()
    if ("failed" in result) passkeyFailure.value = result.formErrors[0] ?? "The passkey could not be used."
    else await props.onVerified$()
  })
  const failure = stepUp.value?.failed ? stepUp.value.message : passkeyFailure.value
  return (
    <div class="card step-up" role="region" aria-labelledby="step-up-title">
      <h3 id="step-up-title">Confirm it is you</h3>
      <p>This change needs your second factor, verified in the last few minutes. Then it goes through.</p>
      {failure && (
        <p class="alert" role="alert">
          {failure}
        </p>
      )}
      <Form
        action={stepUp}
        class="stack"
        onSubmitCompleted$={async (e) => {
          if (e.detail.value.verified) await props.onVerified$()
        }}
      >
        <label for="step-up-code">Code from your authenticator app, or a backup code</label>
        <input id="step-up-code" name="code" type="text" inputMode="text" autoComplete="one-time-code" required maxLength={64} />
        <div class="row">
          <button type="submit" class="button primary">
            Verify and continue
          </button>
          <button type="button" class="button small" onClick$={usePasskey}>
            Use a passkey
          </button>
        </div>
      </Form>
    </div>
  )
})
