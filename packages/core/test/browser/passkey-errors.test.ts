/**
 * The built-in sign-in page's passkey failures in words: what @simplewebauthn/browser reports
 * (its `WebAuthnError` codes, the browser's exception names) becomes a sentence saying what the
 * person can do, never a raw code. The errors are the library's own, built as it builds them.
 */
import { WebAuthnError } from "@simplewebauthn/browser"
import { describe, expect, it } from "vitest"
import { describePasskeyError, passkeyFailure } from "../../browser/passkey-errors.js"

/** What the browser throws (a DOMException), wrapped as @simplewebauthn/browser wraps it. */
function webAuthnError(name: string, code: ConstructorParameters<typeof WebAuthnError>[0]["code"]) {
  return new WebAuthnError({ message: "from the browser", code, cause: new DOMException("from the browser", name) })
}

describe("describePasskeyError", () => {
  it("a page at an IP address (ERROR_INVALID_DOMAIN) says to open the site as localhost, not that the connection failed", () => {
    const failure = describePasskeyError(webAuthnError("SecurityError", "ERROR_INVALID_DOMAIN"))
    expect(failure?.code).toBe("INVALID_DOMAIN")
    expect(failure?.message).toContain("Open this site as localhost")
    expect(failure?.message).not.toMatch(/connection|ERROR_/)
  })

  it.each([
    ["SecurityError", "ERROR_INVALID_RP_ID", "RP_ID_MISMATCH", "another address"],
    ["NotAllowedError", "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY", "PROMPT_CANCELLED", "closed or timed out"],
    ["InvalidStateError", "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED", "CREDENTIAL_ALREADY_REGISTERED", "already registered"],
    ["NotSupportedError", "ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG", "AUTHENTICATOR_UNSUPPORTED", "Try another one"],
    ["ConstraintError", "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT", "AUTHENTICATOR_UNSUPPORTED", "Try another one"],
    ["UnknownError", "ERROR_AUTHENTICATOR_GENERAL_ERROR", "AUTHENTICATOR_ERROR", "reported an error"],
  ] as const)("%s / %s -> %s", (name, libraryCode, code, words) => {
    const failure = describePasskeyError(webAuthnError(name, libraryCode))
    expect(failure).toEqual({ code, message: expect.stringContaining(words) })
  })

  it("a bare browser exception (no library code) is read by its name", () => {
    expect(describePasskeyError(new DOMException("x", "NotAllowedError"))?.code).toBe("PROMPT_CANCELLED")
    expect(describePasskeyError(new DOMException("x", "SecurityError"))?.code).toBe("RP_ID_MISMATCH")
  })

  it("a request that got no answer (fetch's TypeError) is a connection problem", () => {
    expect(describePasskeyError(new TypeError("Failed to fetch"))).toEqual({ code: "REQUEST_FAILED", message: expect.stringContaining("Check your connection") })
  })

  it("an abort the page caused (a new prompt replacing the old) shows nothing", () => {
    expect(describePasskeyError(new DOMException("x", "AbortError"))).toBeUndefined()
    expect(describePasskeyError(webAuthnError("AbortError", "ERROR_CEREMONY_ABORTED"))).toBeUndefined()
  })

  it("the options endpoint's code picks its sentence; an unknown one the general sentence, never shown itself", () => {
    expect(describePasskeyError(Object.assign(new Error("options"), { name: "OptionsError", code: "CREDENTIAL_UNKNOWN" }))?.message).toContain("not registered here")
    const odd = describePasskeyError(Object.assign(new Error("options"), { name: "OptionsError", code: "<b>SOMETHING</b>" }))
    expect(odd?.message).toBe(passkeyFailure("UNKNOWN").message)
    expect(odd?.message).not.toContain("SOMETHING")
  })

  it("anything else gets the general sentence, with no code in it", () => {
    for (const err of [undefined, null, "x", 42, {}, new Error("weird"), { name: "__proto__" }, { code: "constructor" }]) {
      expect(describePasskeyError(err)).toEqual({ code: "UNKNOWN", message: "The passkey could not be used. Try again, or sign in another way." })
    }
  })
})
