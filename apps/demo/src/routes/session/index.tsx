import { component$ } from "@builder.io/qwik"
import { routeLoader$, type DocumentHead } from "@builder.io/qwik-city"
import { getToken } from "@authlib/core"
import { demoAuthConfig } from "../../server/auth-config"
import { useSession } from "../plugin@auth"

/** The decoded session token behind the session (JWT strategy), as the server sees it. */
export const useToken = routeLoader$(async (ev) => {
  const config = demoAuthConfig(ev.env)
  const token = await getToken({ req: ev.request, secret: config.secret })
  return token ? JSON.parse(JSON.stringify(token)) as Record<string, unknown> : null
})

export default component$(() => {
  const session = useSession()
  const token = useToken()
  return (
    <section aria-labelledby="session-title">
      <h1 id="session-title">Session</h1>
      <p class="lead">What the app knows about you, and what it keeps in your browser to know it.</p>
      <h2>Session (useSession)</h2>
      <pre class="code" aria-label="Session JSON">{JSON.stringify(session.value, null, 2)}</pre>
      <h2>Encrypted token, decrypted on the server</h2>
      <p class="muted">The cookie holds a JWE (A256CBC-HS512); this is its payload.</p>
      <pre class="code" aria-label="Token payload">{JSON.stringify(token.value, null, 2)}</pre>
    </section>
  )
})

export const head: DocumentHead = { title: "Session" }
