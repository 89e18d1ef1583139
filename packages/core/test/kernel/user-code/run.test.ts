/**
 * The one runner of user code: every site maps a throw to the spec's type with one cause shape,
 * and the same callback throwing surfaces the same way wherever it runs.
 */
import { describe, expect, it } from "vitest"
import { AccessDenied, AuthError, CredentialsSignin } from "../../../src/index.js"
import { userCodeError, type UserCodeSite } from "../../../src/kernel/user-code/run.js"
import { Client, config, recordingLogger } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"

describe("userCodeError: one table from site to error", () => {
  const cases: Array<[UserCodeSite, string, string, string, string]> = [
    ["signIn", "github", "AccessDenied", "SIGNIN_CALLBACK_THREW", "provider"],
    ["callback", "jwt", "CallbackError", "CALLBACK_THREW", "callback"],
    ["provider", "github.profile", "OAuthCallbackError", "PROVIDER_CALLBACK_THREW", "callback"],
    ["authorize", "credentials", "CallbackRouteError", "AUTHORIZE_THREW", "provider"],
    ["sendVerificationRequest", "email", "EmailSignInError", "SEND_FAILED", "provider"],
    ["adapter", "getUser", "AdapterError", "ADAPTER_METHOD_FAILED", "method"],
    ["event", "signIn", "EventError", "EVENT_HANDLER_THREW", "event"],
  ]
  it.each(cases)("%s (%s) -> %s %s, cause { %s, err }", (site, name, type, code, key) => {
    const thrown = new Error("boom")
    const err = userCodeError(site, name, thrown)
    expect(err).toMatchObject({ type, code, cause: { [key]: name, err: thrown } })
  })

  it("a thrown non-Error is kept as `thrown`, never lost", () => {
    expect(userCodeError("callback", "session", "a string").cause).toEqual({ callback: "session", thrown: "a string" })
  })

  it("the signIn callback's error keeps the original message (spec 3)", () => {
    expect(userCodeError("signIn", "github", new Error("banned user")).message).toBe("banned user")
  })

  it.each([
    ["signIn", true],
    ["callback", true],
    ["provider", true],
    ["authorize", false],
    ["adapter", false],
    ["event", false],
  ] as const)("an AuthError thrown on purpose at %s passes through: %s", (site, passes) => {
    const own = new AuthError("no", { code: "MINE" }) // not client-safe
    expect(userCodeError(site, "x", own) === own).toBe(passes)
  })

  it("authorize passes client-safe errors (CredentialsSignin) and wraps the others", () => {
    const refused = new CredentialsSignin()
    expect(userCodeError("authorize", "credentials", refused)).toBe(refused)
    const internal = new AuthError("x", { code: "X" })
    expect(userCodeError("authorize", "credentials", internal).type).toBe("CallbackRouteError")
  })

  it("a failed send keeps the sender's own code", () => {
    expect(userCodeError("sendVerificationRequest", "email", new AuthError("x", { code: "SMTP_REJECTED" })).code).toBe("SMTP_REJECTED")
  })
})

describe("the jwt callback throwing surfaces as CallbackError at sign-in and on read alike", () => {
  it("POST /auth/callback/credentials and GET /auth/session both log CallbackError CALLBACK_THREW", async () => {
    let fail = false
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger, callbacks: { jwt: ({ token }) => { if (fail) throw new Error("jwt broke"); return token } } }))
    await client.signIn()
    fail = true
    const read = await client.request("/auth/session")
    expect(read.status).toBe(500)
    const signIn = await new Client(client.config).signIn()
    expect(signIn.headers.get("location")).toContain("error=Configuration")
    const logged = entries.filter((e) => e.level === "error").map((e) => e.message[0] as AuthError)
    expect(logged.map((e) => [e.type, e.code])).toEqual([["CallbackError", "CALLBACK_THREW"], ["CallbackError", "CALLBACK_THREW"]])
  })

  it("under database sessions an adapter failure is an AdapterError naming the method", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger, adapter: { ...memoryAdapter(), createSession: () => { throw new Error("disk full") } } }))
    await client.signIn()
    expect(entries.find((e) => e.level === "error")?.message[0]).toMatchObject({ type: "AdapterError", cause: { method: "createSession" } })
  })
})
