"use client"
// Signing in from the browser: `signIn` of `@authlib/nextjs/react` (as in `next-auth/react`) and a
// passkey (its passkey helpers, mounted at the SessionProvider's basePath).
import { signIn, signInWithPasskey } from "@authlib/nextjs/react"
import { useState } from "react"

export function ClientSignIn({ callbackUrl }: { callbackUrl: string }) {
  const [error, setError] = useState("")
  return (
    <section>
      <h2>From the browser</h2>
      <form
        id="client-sign-in"
        onSubmit={async (event) => {
          event.preventDefault()
          const form = new FormData(event.currentTarget)
          const result = await signIn("password", { email: form.get("email"), password: form.get("password"), redirectTo: callbackUrl, redirect: false })
          if (result?.error) setError(result.error)
          else window.location.assign(result?.url ?? callbackUrl)
        }}
      >
        <input id="client-email" name="email" type="email" aria-label="Email (client)" autoComplete="username" required />
        <input id="client-password" name="password" type="password" aria-label="Password (client)" autoComplete="current-password" required />
        <button type="submit">Sign in (client)</button>
      </form>
      <button
        id="passkey-sign-in"
        type="button"
        onClick={async () => {
          const result = await signInWithPasskey({ callbackUrl })
          if ("failed" in result) setError(result.formErrors[0] ?? result.error)
        }}
      >
        Sign in with a passkey
      </button>
      <p id="client-error" role="alert">{error}</p>
    </section>
  )
}
