import { component$, useSignal, useVisibleTask$ } from "@builder.io/qwik"
import { signInWithPasskey, startPasskeyAutofill } from "@authlib/qwik/passkey"
import { Form, routeAction$, routeLoader$, useLocation, z, zod$, type DocumentHead } from "@builder.io/qwik-city"
import { CredentialsSignin, RateLimited, rateLimitedMessage, signIn } from "@authlib/qwik"
import { DEMO_LOGIN, IDP_ACCOUNTS, IDP_PASSWORD, SAML_IDP_PEOPLE, SSO_DEMO } from "../../lib/demo-login"
import { useSignIn } from "../plugin@auth"

/**
 * The password form goes through the binding's `signIn` in our own action, so a wrong password
 * (the `CredentialsSignin` it throws) and too many attempts (`RateLimited`) become a message on this
 * page instead of an error page.
 */
export const useLogin = routeAction$(
  async (form, ev) => {
    try {
      await signIn(ev, { providerId: "password", options: { email: form.email, password: form.password }, redirectTo: form.redirectTo || "/" })
    } catch (err) {
      if (err instanceof CredentialsSignin) {
        return ev.fail(401, { message: "That email and password do not match an account.", code: err.code })
      }
      // Too many attempts: the binding's sentence ("... try again in 40 seconds"), status 429.
      if (err instanceof RateLimited) return ev.fail(err.status, { message: rateLimitedMessage(err), code: err.code })
      throw err
    }
  },
  zod$({
    email: z.string().email("Enter an email address."),
    password: z.string().min(1, "Enter your password."),
    redirectTo: z.string().optional(),
  }),
)

/** The OAuth / OpenID Connect providers of the config (Demo IdP, plus GitHub & co when configured). */
export const useOAuthProviders = routeLoader$(async (ev) => {
  const { demoAuthConfig } = await import("../../server/auth-config")
  const config = await demoAuthConfig(ev.env)
  return config.providers
    .map((p) => (typeof p === "function" ? p() : p))
    .filter((p) => p.type === "oidc" || p.type === "oauth")
    .map((p) => ({ id: p.id, name: p.name }))
})

/** The id of the SSO provider while enterprise SSO is on (the Demo SAML IdP runs only while the app's URL is loopback), else null. */
export const useSsoProvider = routeLoader$(async (ev) => {
  const { demoAuthConfig } = await import("../../server/auth-config")
  const sso = (await demoAuthConfig(ev.env)).providers.map((p) => (typeof p === "function" ? p() : p)).find((p) => p.type === "sso")
  return sso ? sso.id : null
})

/** The sentence for a refused SSO sign-in (`?error=SsoSignInError&code=...`), the code kept visible for support. */
function ssoRefusal(code: string | null): string {
  if (code === "CONNECTION_UNKNOWN") return "No organization signs in with SSO at that address's domain (CONNECTION_UNKNOWN). Sign in another way."
  return `The single sign-on did not complete (${code ?? "unknown"}). Please try again.`
}

/**
 * Enterprise SSO, e-mail first, through the binding's own action (as the e-mail link form): it posts
 * `email` with a CSRF token to core's `signin/sso` in-process and follows core's redirect to the
 * organization's IdP, or back here with `?error=SsoSignInError&code=...`. A plain form post, so it
 * works with JavaScript off too.
 */
const SsoSignIn = component$((props: { providerId: string; callbackUrl: string }) => {
  const signIn = useSignIn()
  return (
    <Form action={signIn} class="stack">
      <input type="hidden" name="providerId" value={props.providerId} />
      <input type="hidden" name="redirectTo" value={props.callbackUrl} />
      <label for="sso-email">Work email</label>
      <input id="sso-email" name="options.email" type="email" autocomplete="email" required placeholder={`you@${SSO_DEMO.domain}`} />
      <button type="submit" class="button">
        Sign in with SSO
      </button>
    </Form>
  )
})

/** Messages for the `error` query parameter core adds when it sends a user back here. */
const errorText: Record<string, string> = {
  CredentialsSignin: "That email and password do not match an account.",
  MissingCSRF: "The form expired. Please try again.",
  RateLimited: "Too many attempts. Please wait a little, then try again.",
  OAuthAccountNotLinked: "This email is already linked to another sign-in method.",
  AccessDenied: "Access was denied.",
  OAuthCallbackCancelled: "You cancelled the sign-in at the provider. Try again when you are ready.",
  WebAuthnVerificationError: "The passkey could not be used. Try again, or sign in another way.",
  Verification: "That sign-in link was already used or has expired. Ask for a new one below.",
  EmailSignInError: "The sign-in link could not be sent. Please try again.",
  OAuthCallbackError: "The sign-in at the provider did not complete. Please try again.",
  Configuration: "Sign-in is not available right now. Please try again later.",
  OrganizationError: "That invitation cannot be used: it was already used, withdrawn or has expired, or it was sent to another address. Ask for a new one.",
}

/**
 * Passkeys: a button, and autofill on the e-mail field (its autocomplete says `webauthn`). Browsers
 * accept passkeys only on a domain name, so at 127.0.0.1 the section says where to go instead.
 */
const PasskeySignIn = component$((props: { callbackUrl: string }) => {
  const error = useSignal("")
  const host = useSignal<string>()
  // Autofill starts once the page is visible: the browser then offers passkeys in the e-mail field.
  useVisibleTask$(() => {
    host.value = location.hostname
    if (location.hostname !== "localhost") return
    // Autofill is an offer: when it cannot run (no passkeys here, a request cancelled), the button stays.
    // A passkey the user picked that the server refused (deleted here, say) is said, not swallowed;
    // the helper has already told the browser to stop offering an unknown one.
    void startPasskeyAutofill({ callbackUrl: props.callbackUrl }).then((result) => {
      if ("failed" in result && result.error !== "PasskeyError") error.value = result.formErrors[0] ?? "The passkey could not be used."
    })
  })
  return (
    <div class="stack">
      <button
        type="button"
        class="button wide"
        onClick$={async () => {
          error.value = ""
          const result = await signInWithPasskey({ callbackUrl: props.callbackUrl })
          if ("failed" in result) error.value = result.formErrors[0] ?? "The passkey could not be used."
        }}
      >
        Sign in with a passkey
      </button>
      {error.value && (
        <p class="alert" role="alert">
          {error.value}
        </p>
      )}
      {host.value && host.value !== "localhost" && (
        <p class="hint">
          Passkeys need a domain name: open this page at <a href={`http://localhost:${location.port}/sign-in/`}>localhost</a> instead of {host.value}.
        </p>
      )}
    </div>
  )
})

export default component$(() => {
  const loc = useLocation()
  const login = useLogin()
  const signIn = useSignIn()
  const oauth = useOAuthProviders()
  const ssoProvider = useSsoProvider()
  const callbackUrl = loc.url.searchParams.get("callbackUrl") ?? "/"
  const queryError = loc.url.searchParams.get("error")
  const signedOut = loc.url.searchParams.get("signedOut")
  // The binding's action answers in its failure shape: too many e-mails is one of its formErrors.
  const linkFailure = signIn.value?.failed ? (signIn.value.formErrors?.[0] ?? "The sign-in link could not be sent.") : undefined
  const failure = login.value?.failed
    ? (login.value.message ?? login.value.fieldErrors?.email ?? login.value.fieldErrors?.password ?? "Please check the form.")
    : linkFailure
      ? linkFailure
      : queryError === "SsoSignInError"
      ? ssoRefusal(loc.url.searchParams.get("code"))
      : queryError
      ? (errorText[queryError] ?? "Sign-in failed. Please try again.")
      : undefined
  return (
    <section class="auth-card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <p class="muted">Choose how you want to sign in to the demo.</p>
      {failure && (
        <p class="alert" role="alert">
          {failure}
        </p>
      )}
      {!failure && signedOut === "everywhere" && (
        <p class="notice" role="status">
          You are signed out on every device.
        </p>
      )}
      <div class="stack">
        {oauth.value.map((p) => (
          <Form key={p.id} action={signIn}>
            <input type="hidden" name="providerId" value={p.id} />
            <input type="hidden" name="redirectTo" value={callbackUrl} />
            <button type="submit" class="button wide">
              Continue with {p.name}
            </button>
          </Form>
        ))}
      </div>
      {oauth.value.some((p) => p.id === "demo-idp") && (
        <p class="hint">
          Demo IdP accounts:{" "}
          {Object.keys(IDP_ACCOUNTS).map((l, i) => (
            <span key={l}>
              {i > 0 && " or "}
              <code>{l}</code>
            </span>
          ))}
          , password <code>{IDP_PASSWORD}</code>.
        </p>
      )}
      <p class="divider">or</p>
      <PasskeySignIn callbackUrl={callbackUrl} />
      <p class="divider">or</p>
      <Form action={login} class="stack">
        <input type="hidden" name="redirectTo" value={callbackUrl} />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username webauthn" required value={login.formData?.get("email") ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" class="button primary" disabled={login.isRunning}>
          Sign in with email and password
        </button>
      </Form>
      <p class="hint">
        Demo account: <code>{DEMO_LOGIN.email}</code> / <code>{DEMO_LOGIN.password}</code>
      </p>
      <p class="divider">or</p>
      {/* The binding's own action: e-mail sign-in redirects to core's "check your e-mail" page. */}
      <Form action={signIn} class="stack">
        <input type="hidden" name="providerId" value="nodemailer" />
        <input type="hidden" name="redirectTo" value={callbackUrl} />
        <label for="link-email">Email for a sign-in link</label>
        <input id="link-email" name="options.email" type="email" autocomplete="email" required />
        <button type="submit" class="button">
          Email me a sign-in link
        </button>
      </Form>
      <p class="hint">
        Links arrive in the demo's <a href="/inbox/">inbox</a>.
      </p>
      {ssoProvider.value && (
        <>
          <p class="divider">or</p>
          <SsoSignIn providerId={ssoProvider.value} callbackUrl={callbackUrl} />
          <p class="hint">
            {SSO_DEMO.organization.name} signs its staff in through the Demo SAML IdP:{" "}
            {Object.keys(SAML_IDP_PEOPLE).map((email, i) => (
              <span key={email}>
                {i > 0 && " or "}
                <code>{email}</code>
              </span>
            ))}
            .
          </p>
        </>
      )}
      <p class="hint">
        This page is built with <code>@authlib/qwik</code>. authlib's <a href="/auth/signin">built-in sign-in page</a> works too.
      </p>
    </section>
  )
})

export const head: DocumentHead = { title: "Sign in" }
