/**
 * "Are you sure?" before a change that removes something (a passkey, a linked account, two-step
 * verification): the submit button's click asks `window.confirm` with its `data-confirm` text,
 * and a "Cancel" cancels the click, so Qwik City's `<Form>` never sees a submit. It runs
 * synchronously (`sync$`: a lazily loaded handler would run after the click's default action);
 * pressing Enter in a field of the form asks too, as browsers submit a form by clicking its button.
 *
 * A `sync$` function closes over nothing, so the question comes from the button itself.
 */
import { sync$ } from "@builder.io/qwik"

export const confirmFirst = sync$((event: Event, button: Element): void => {
  const question = button.getAttribute("data-confirm")
  if (question && !window.confirm(question)) event.preventDefault()
})
