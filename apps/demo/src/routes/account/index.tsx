import { component$ } from "@builder.io/qwik"
import type { DocumentHead, RequestHandler } from "@builder.io/qwik-city"
import { getSession } from "@authlib/qwik"
import { useSession } from "../plugin@auth"

/** Signed-out visitors go to the sign-in page and come back here afterwards. */
export const onRequest: RequestHandler = async (ev) => {
  const { data } = await getSession(ev)
  if (!data) throw ev.redirect(302, `/sign-in/?${new URLSearchParams({ callbackUrl: ev.url.pathname })}`)
}

export default component$(() => {
  const session = useSession()
  const user = session.value?.user
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Your account</h1>
      <p class="lead">This page is protected: only signed-in users see it.</p>
      <dl class="facts">
        <dt>Name</dt>
        <dd>{user?.name ?? "(none)"}</dd>
        <dt>E-mail</dt>
        <dd>{user?.email ?? "(none)"}</dd>
        <dt>Session expires</dt>
        <dd>{session.value?.expires}</dd>
      </dl>
    </section>
  )
})

export const head: DocumentHead = { title: "Account" }
