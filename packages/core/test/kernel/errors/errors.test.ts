import { describe, expect, it } from "vitest"
import * as errors from "../../../src/index.js"
import { AuthError, CredentialsSignin } from "../../../src/index.js"
import { Client, config, ORIGIN, recordingLogger } from "../../helpers/harness.js"

const clientSafe = ["CredentialsSignin", "AccessDenied", "MissingCSRF", "Verification", "OAuthAccountNotLinked", "InvalidRequest", "MethodNotAllowed", "OAuthCallbackCancelled", "EmailSignInError", "InvalidEmailAddress", "WebAuthnVerificationError", "SessionRequired", "PasskeyManagementError", "RateLimited", "SessionManagementError", "AccountManagementError", "TwoFactorError", "ReauthenticationRequired", "OrganizationError", "SsoSignInError", "SsoError"]

describe("the error catalogue", () => {
  const classes = Object.entries(errors).filter(([, v]) => typeof v === "function" && (v as { prototype?: unknown }).prototype instanceof Error) as Array<[string, typeof AuthError]>

  it("every class is an AuthError whose static and instance type is its class name", () => {
    expect(classes.length).toBeGreaterThanOrEqual(28)
    for (const [name, Cls] of classes) {
      expect(Cls.type).toBe(name)
      // One constructor shape for every class, InvalidRequest included.
      const err = new Cls("m", { code: "C" })
      expect(err).toBeInstanceOf(AuthError)
      expect(err.type).toBe(name)
      expect(err.name).toBe(name)
      expect(err.code).toBe("C")
    }
  })

  it("only the user-facing types are client-safe", () => {
    expect(classes.filter(([, Cls]) => Cls.clientSafe).map(([n]) => n).sort()).toEqual([...clientSafe].sort())
  })

  it("CredentialsSignin: static type, instance code defaulting to credentials, overridable by subclass or option", () => {
    expect(CredentialsSignin.type).toBe("CredentialsSignin")
    expect(new CredentialsSignin().code).toBe("credentials")
    expect(new CredentialsSignin("x", { code: "mfa_required" }).code).toBe("mfa_required")
    class Locked extends CredentialsSignin { override code = "locked" }
    expect(new Locked().code).toBe("locked")
  })

  it("cause is a plain record with the underlying error as err", () => {
    const inner = new Error("inner")
    const err = new errors.AdapterError("outer", { code: "ADAPTER_METHOD_FAILED", cause: { method: "getUser", err: inner } })
    expect(err.cause).toEqual({ method: "getUser", err: inner })
  })
})

describe("error mapping through Auth", () => {
  it("a provider type without a flow yet answers InvalidProvider, logged, shown as Configuration", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger, experimental: { enableWebAuthn: true }, providers: [{ id: "saml", name: "SAML", type: "saml" as never }] }))
    const res = await client.post("/auth/signin/saml")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(entries.find((e) => e.level === "error")?.message[0]).toMatchObject({ type: "InvalidProvider", code: "FLOW_UNAVAILABLE" })
    expect(entries.some((e) => e.code === "flow-unavailable")).toBe(true)
  })

  it("callback for an unknown provider is 404 UnknownAction", async () => {
    const res = await new Client(config()).post("/auth/callback/ghost")
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ error: "UnknownAction", code: "PROVIDER_UNKNOWN" })
  })

  it("POST /auth/signin without a provider id is 404 UnknownAction", async () => {
    const res = await new Client(config()).post("/auth/signin")
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ error: "UnknownAction", code: "PROVIDER_ID_MISSING" })
  })

  it("an unexpected error in a callback is logged with its stack and never reaches the response", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger, callbacks: { session: () => { throw new TypeError("secret detail") } } }))
    await client.signIn()
    const res = await client.request("/auth/session")
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(text).toBe('{"error":"Configuration"}')
    expect(entries.find((e) => e.level === "error")?.message[0]).toMatchObject({ type: "CallbackError", cause: { callback: "session" } })
  })

  it("credentials sign-in also accepts a JSON body", async () => {
    const client = new Client(config())
    const csrfToken = await client.csrfToken()
    const res = await client.request("/auth/callback/credentials", { json: { csrfToken, username: "alice", password: "wonderland" } })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
  })
})

describe("AnyAuthError discriminates on type", () => {
  it("narrows to the class of the case", () => {
    const describe = (err: errors.AnyAuthError): string => {
      switch (err.type) {
        case "CredentialsSignin":
          return `credentials:${err.code}`
        case "InvalidRequest":
          return `request:${err.status}`
        default:
          return err.type
      }
    }
    expect(describe(new CredentialsSignin("x", { code: "c" }))).toBe("credentials:c")
    expect(describe(new errors.InvalidRequest("x", { code: "BODY_TOO_LARGE", status: 413 }))).toBe("request:413")
    const type: errors.ErrorType = "AccessDenied"
    expect(describe(new errors.AccessDenied())).toBe(type)
  })
})
