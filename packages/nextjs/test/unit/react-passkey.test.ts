/**
 * The passkey helpers of `@authlib/nextjs/react` in a stand-in browser (a `fetch` that records, a
 * `PublicKeyCredential` so the browser counts as passkey-capable): they ask core under the
 * `SessionProvider`'s mount point, `/api/auth` by default, and a call's own `basePath` wins.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { setBasePath } from "../../src/react/client.js"
import { registerPasskey, signInWithPasskey } from "../../src/react/passkey.js"

const asked: string[] = []
const g = globalThis as Record<string, unknown>
const saved = { fetch: g.fetch, location: g.location, PublicKeyCredential: g.PublicKeyCredential }

beforeEach(() => {
  asked.length = 0
  g.PublicKeyCredential = function PublicKeyCredential() {}
  g.location = { href: "http://app.test/account" }
  // Core refuses the options (as for a user it does not know): the helper stops there, having asked.
  g.fetch = async (input: string | URL) => {
    asked.push(new URL(String(input)).pathname)
    return Response.json({ error: "WebAuthnVerificationError", code: "REGISTRATION_REQUIRES_SESSION" }, { status: 400 })
  }
})

afterEach(() => {
  Object.assign(g, saved)
  setBasePath("/api/auth")
})

describe("passkey helpers of @authlib/nextjs/react", () => {
  it("ask core at /api/auth by default and answer core's refusal in the failure shape", async () => {
    const result = await signInWithPasskey()
    expect(asked).toEqual(["/api/auth/webauthn-options/passkey"])
    expect(result).toMatchObject({ failed: true, error: "WebAuthnVerificationError", code: "REGISTRATION_REQUIRES_SESSION" })
  })

  it("follow the SessionProvider's basePath, and a call's own", async () => {
    setBasePath("/auth/")
    await registerPasskey()
    await registerPasskey({ basePath: "/elsewhere", provider: "key" })
    expect(asked).toEqual(["/auth/webauthn-options/passkey", "/elsewhere/webauthn-options/key"])
  })
})
