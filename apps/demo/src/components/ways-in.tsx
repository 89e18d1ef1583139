/**
 * The account page's "Ways to sign in": core's one list of the user's ways in (`listSignInMethods`,
 * the list its last-way-in rule counts), "Unlink" on IdP accounts only, and linking the Demo IdP.
 * The loader and action are re-exported by the route (Qwik City runs them from there).
 */
import { $, component$, useSignal } from "@builder.io/qwik"
import { Form, routeAction$, routeLoader$, z, zod$ } from "@builder.io/qwik-city"
import { AccountManagementError, listSignInMethods, unlinkLinkedAccount } from "@authlib/qwik"
import { useSignIn } from "../routes/plugin@auth"
import { idpIssuer } from "../server/idp-issuer"
import { askedStepUp, needsStepUp, StepUp } from "./step-up"
import { confirmFirst } from "./confirm"

/** The ways the user can sign in (core's one list, the one its last-way-in rule counts), and whether the Demo IdP can be linked. */
export const useLinkedAccounts = routeLoader$(async (ev) => {
  const methods = await listSignInMethods(ev)
  const canLinkIdp = Boolean(await idpIssuer(ev.env)) && !methods.some((m) => m.provider === "demo-idp")
  return { methods: methods.map(({ kind, provider, name, count, removal }) => ({ kind, provider, name, count, removal })), canLinkIdp }
})

export const useUnlink = routeAction$(
  async (form, ev) => {
    try {
      await unlinkLinkedAccount(ev, { provider: form.provider })
      return { message: "Unlinked: it no longer signs in to this account." }
    } catch (err) {
      if (needsStepUp(err)) return ev.fail(403, { message: "", stepUp: true })
      if (err instanceof AccountManagementError && err.code === "LAST_SIGN_IN_METHOD")
        return ev.fail(409, { message: "This is your only way to sign in: link another one first." })
      if (err instanceof AccountManagementError && err.code === "ACCOUNT_NOT_UNLINKABLE")
        return ev.fail(409, { message: "That one is not unlinked here: remove passkeys under Passkeys below." })
      if (err instanceof AccountManagementError) return ev.fail(404, { message: "That sign-in method is not linked." })
      throw err
    }
  },
  zod$({ provider: z.string() }),
)

/** What a way in says beside its name, and how it goes away. */
function methodNote(m: { kind: string; count: number }): string {
  if (m.kind === "passkey") return m.count === 1 ? "1 passkey: manage it under Passkeys" : `${m.count} passkeys: manage them under Passkeys`
  if (m.kind === "password") return "your password"
  if (m.kind === "email") return "a link to your verified address"
  return ""
}

export const LinkedAccounts = component$(() => {
  const accounts = useLinkedAccounts()
  const unlink = useUnlink()
  const signIn = useSignIn()
  const stepUp = useSignal(false)
  const retry = $(async () => {
    stepUp.value = false
    if (unlink.formData) await unlink.submit(unlink.formData)
  })
  // Shown from the action's last answer (a retry after a step-up updates it too).
  const answer = unlink.value
  return (
    <section aria-labelledby="linked-title">
      <h2 id="linked-title">Ways to sign in</h2>
      {answer?.failed && answer.message && (
        <p class="alert" role="alert">
          {answer.message}
        </p>
      )}
      {!answer?.failed && answer?.message && (
        <p class="notice" role="status">
          {answer.message}
        </p>
      )}
      {stepUp.value && <StepUp onVerified$={retry} />}
      <ul class="session-list">
        {accounts.value.methods.map((m) => (
          <li key={m.provider} class="session linked-account">
            <span>
              {m.name}
              {methodNote(m) && <span class="hint"> ({methodNote(m)})</span>}
            </span>
            {m.removal === "unlink" && (
              <Form action={unlink} onSubmitCompleted$={(e) => void (askedStepUp(e.detail.value) && (stepUp.value = true))}>
                <input type="hidden" name="provider" value={m.provider} />
                <button type="submit" class="button small" data-confirm={`Unlink ${m.name}? It will no longer sign you in to this account.`} onClick$={confirmFirst}>
                  Unlink
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {accounts.value.canLinkIdp && (
        <Form action={signIn}>
          <input type="hidden" name="providerId" value="demo-idp" />
          <input type="hidden" name="redirectTo" value="/account/" />
          <button type="submit" class="button small">
            Link the Demo IdP
          </button>
          <span class="hint"> Signing in with it while signed in here links it to this user.</span>
        </Form>
      )}
    </section>
  )
})
