import { ClientSignIn } from "../components/client-sign-in"
import { signInWithEmail, signInWithIdp, signInWithPassword } from "../actions"

export const dynamic = "force-dynamic"

const MESSAGES: Record<string, string> = {
  CredentialsSignin: "That e-mail and password did not match.",
  RateLimited: "Too many attempts. Please try again later.",
}

/** Every way in: the password form and e-mail link (server actions), the Demo IdP, the browser, a passkey. */
export default async function SignIn({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams
  const callbackUrl = typeof params.callbackUrl === "string" ? params.callbackUrl : "/"
  // The proxy sends an absolute callbackUrl: keep its path only, so a sign-in never leaves the site.
  const back = callbackUrl.startsWith("/") ? callbackUrl : new URL(callbackUrl, "http://x").pathname + new URL(callbackUrl, "http://x").search
  const error = typeof params.error === "string" ? (MESSAGES[params.error] ?? "That sign-in did not work. Try again.") : ""
  return (
    <main>
      <h1>Sign in</h1>
      {error ? <p id="sign-in-error" role="alert">{error}</p> : null}
      <p>Demo account: ada@example.com / correct-horse-battery. Demo IdP: grace or alan, password idp-demo.</p>
      <section>
        <h2>Email and password (server action)</h2>
        <form id="password-sign-in" action={signInWithPassword}>
          <input type="hidden" name="callbackUrl" value={back} />
          <input id="email" name="email" type="email" aria-label="Email" autoComplete="username webauthn" required />
          <input id="password" name="password" type="password" aria-label="Password" autoComplete="current-password" required />
          <button type="submit">Sign in</button>
        </form>
      </section>
      <section>
        <h2>Email link</h2>
        <form id="email-sign-in" action={signInWithEmail}>
          <input type="hidden" name="callbackUrl" value={back} />
          <input id="link-email" name="email" type="email" aria-label="Email for a link" required />
          <button type="submit">Send me a link</button>
        </form>
        <p>The link lands in the <a href="/inbox">Inbox</a>.</p>
      </section>
      <section>
        <h2>Demo IdP (OpenID Connect)</h2>
        <form id="idp-sign-in" action={signInWithIdp}>
          <input type="hidden" name="callbackUrl" value={back} />
          <button type="submit">Sign in with the Demo IdP</button>
        </form>
      </section>
      <ClientSignIn callbackUrl={back} />
    </main>
  )
}
