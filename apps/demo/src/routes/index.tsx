import { component$ } from "@builder.io/qwik"
import { Form, Link, routeLoader$, type DocumentHead } from "@builder.io/qwik-city"
import { useSession, useSignIn, useSignOut } from "./plugin@auth"

/** The ways of signing in the demo shows, each with what happens behind it. */
const methods = [
  {
    id: "credentials",
    title: "Email and password",
    text: "A credentials provider checks a demo user's password against a scrypt hash. A wrong password shows an error, without a redirect.",
  },
  {
    id: "oidc",
    title: "Demo IdP",
    text: "A local OpenID Connect provider runs beside the app, with its own login and consent pages, PKCE and ID token checks.",
  },
  {
    id: "email",
    title: "Magic link",
    text: "A local SMTP server receives the sign-in email. Open it from the inbox page and follow the link to sign in.",
  },
  {
    id: "passkey",
    title: "Passkey",
    text: "Sign in once another way, add a passkey on your account page, then sign in with your device's screen lock: no password. Use http://localhost:3000 (browsers refuse passkeys on an IP address).",
  },
]

/** Whether the Demo IdP is offered (it is left out when WEBAUTH_URL is not on loopback). */
export const useDemoIdp = routeLoader$(async (ev) => {
  const { demoAuthConfig } = await import("../server/auth-config")
  const config = await demoAuthConfig(ev.env)
  return config.providers.some((p) => (typeof p === "function" ? p() : p).id === "demo-idp")
})

/** Who is signed in, with the binding's own actions to sign in (Demo IdP) or out. */
const AuthStatus = component$(() => {
  const session = useSession()
  const demoIdp = useDemoIdp()
  const signIn = useSignIn()
  const signOut = useSignOut()
  const user = session.value?.user
  if (user) {
    return (
      <section class="status-card" aria-label="Your session">
        <p>
          Signed in as <strong>{user.name ?? user.email}</strong>
          {user.name && user.email ? ` (${user.email})` : ""}.
        </p>
        <Form action={signOut}>
          <input type="hidden" name="redirectTo" value="/" />
          <button type="submit" class="button">
            Sign out
          </button>
        </Form>
      </section>
    )
  }
  return (
    <section class="status-card" aria-label="Your session">
      <p>You are not signed in.</p>
      <div class="actions">
        {demoIdp.value && (
          <Form action={signIn}>
            <input type="hidden" name="providerId" value="demo-idp" />
            <input type="hidden" name="redirectTo" value="/account/" />
            <button type="submit" class="button">
              Continue with Demo IdP
            </button>
          </Form>
        )}
        <Link href="/sign-in/" class="button primary">
          All ways to sign in
        </Link>
      </div>
    </section>
  )
})

export default component$(() => (
  <>
    <AuthStatus />
    <section class="hero" aria-labelledby="hero-title">
      <p class="eyebrow">authlib for Qwik City</p>
      <h1 id="hero-title">Sign-in that runs on your machine</h1>
      <p class="lead">
        This app is built with <code>@authlib/qwik</code>: one plugin file adds sign-in, sessions and sign-out. It
        starts with nothing to configure and nothing else to install.
      </p>
    </section>
    <section aria-labelledby="methods-title">
      <h2 id="methods-title">Ways to sign in</h2>
      <ul class="cards">
        {methods.map((m) => (
          <li key={m.id} class="card">
            <h3>{m.title}</h3>
            <p>{m.text}</p>
          </li>
        ))}
      </ul>
    </section>
    <section class="note" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions, your choice</h2>
      <p>
        Sessions are encrypted JWT cookies or database records in embedded Postgres (PGlite). One environment variable
        switches between them, and the session page shows the token or record behind your session.
      </p>
    </section>
  </>
))

export const head: DocumentHead = {
  title: "Home",
  meta: [{ name: "description", content: "authlib demo: every way of signing in, running locally in Qwik City." }],
}
