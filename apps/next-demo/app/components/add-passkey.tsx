"use client"
import { registerPasskey } from "@authlib/nextjs/react"
import { useState } from "react"

/** Adds a passkey to the signed-in account (the browser's prompt), then reloads the account page. */
export function AddPasskey() {
  const [error, setError] = useState("")
  return (
    <>
      <button
        id="add-passkey"
        type="button"
        onClick={async () => {
          const result = await registerPasskey({ callbackUrl: "/account?added=1" })
          if ("failed" in result) setError(result.formErrors[0] ?? result.error)
        }}
      >
        Add a passkey
      </button>
      <p id="passkey-error" role="alert">{error}</p>
    </>
  )
}
