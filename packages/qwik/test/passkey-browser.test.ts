/**
 * `@authlib/qwik/passkey` in a stand-in browser: `fetch` goes to core's `Auth()` in-process with a
 * cookie jar, `navigator.credentials` is answered by core's software authenticator (real
 * signatures), and `location` records where the helper navigates. Success, a refused passkey and a
 * cancelled prompt each come back as documented.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { Auth, type AuthConfig } from "@authlib/core"
import { MemoryAdapter } from "@authlib/adapter-test/memory-adapter"
import { SoftAuthenticator } from "../../core/test/capabilities/webauthn/authenticator.js"
import { completeTwoFactorWithPasskey, registerPasskey, signInWithPasskey, supportsPasskeys } from "../src/passkey.js"
import { stepAt, totp } from "@authlib/e2e-kit/totp"

const ORIGIN = "http://localhost:3000"
const SECRET = "qwik-passkey-helper-secret-0123456789abcdef"
const jar = new CookieJar(ORIGIN)
const visited: string[] = []
let device: SoftAuthenticator
let mode: "answer" | "cancel" | "tamper" | "refuse" = "answer"
/** What the browser throws in `refuse` mode: a DOMException of this name. */
let refusal = { name: "SecurityError" }
let config: AuthConfig

const b64 = (s: string) => Uint8Array.from(Buffer.from(s, "base64url")).buffer
const text = (buffer: ArrayBuffer | Uint8Array) => Buffer.from(buffer as ArrayBuffer).toString("base64url")

/** The browser's `PublicKeyCredential` for a response JSON the software authenticator made. */
function credentialOf(json: { id: string; type: string; response: Record<string, unknown>; authenticatorAttachment: string }) {
  const r = json.response as Record<string, string | string[]>
  const response = r.attestationObject
    ? { clientDataJSON: b64(r.clientDataJSON as string), attestationObject: b64(r.attestationObject as string), getTransports: () => r.transports }
    : { clientDataJSON: b64(r.clientDataJSON as string), authenticatorData: b64(r.authenticatorData as string), signature: b64(r.signature as string), userHandle: b64(r.userHandle as string) }
  return { id: json.id, rawId: b64(json.id), type: json.type, response, authenticatorAttachment: json.authenticatorAttachment, getClientExtensionResults: () => ({}) }
}

async function fakeFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input instanceof Request ? input.url : input), ORIGIN)
  const headers = new Headers(init.headers)
  jar.apply(headers, url)
  if (init.method === "POST") headers.set("origin", ORIGIN)
  const res = await Auth(new Request(url, { ...init, headers }), config)
  return jar.keep(res, url)
}

const saved: Record<string, PropertyDescriptor | undefined> = {}
function stub(name: string, value: unknown) {
  saved[name] = Object.getOwnPropertyDescriptor(globalThis, name)
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true })
}

beforeAll(() => {
  stub("fetch", fakeFetch)
  stub("location", { href: `${ORIGIN}/account`, hostname: "localhost", assign: (to: string) => void visited.push(to) })
  stub("window", globalThis)
  stub("PublicKeyCredential", function PublicKeyCredential() {})
  stub("navigator", {
    credentials: {
      async create({ publicKey }: { publicKey: { challenge: ArrayBuffer; rp: { id: string }; user: { id: ArrayBuffer } } }) {
        if (mode === "cancel") throw Object.assign(new Error("The operation either timed out or was not allowed."), { name: "NotAllowedError" })
        return credentialOf(device.register({ challenge: text(publicKey.challenge), rp: publicKey.rp, user: { id: text(publicKey.user.id) } }) as never)
      },
      async get({ publicKey }: { publicKey: { challenge: ArrayBuffer } }) {
        if (mode === "refuse") throw new DOMException("The operation is insecure.", refusal.name)
        if (mode === "cancel") throw Object.assign(new Error("The operation either timed out or was not allowed."), { name: "NotAllowedError" })
        return credentialOf(device.authenticate({ challenge: text(publicKey.challenge) }, undefined, { tamperSignature: mode === "tamper" }) as never)
      },
    },
  })
})
afterAll(() => {
  for (const [name, descriptor] of Object.entries(saved)) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor)
    else delete (globalThis as Record<string, unknown>)[name]
  }
})

beforeEach(async () => {
  jar.clear()
  visited.length = 0
  mode = "answer"
  device = new SoftAuthenticator("localhost", ORIGIN)
  const adapter = MemoryAdapter()
  await adapter.createUser({ id: "ada", name: "Ada", email: "ada@example.test", emailVerified: null })
  config = {
    url: ORIGIN,
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      { id: "password", name: "Password", type: "credentials", credentials: {}, authorize: async () => ({ id: "ada", name: "Ada", email: "ada@example.test" }) },
      { id: "passkey", name: "Passkey", type: "webauthn", simpleWebAuthn: () => import("@simplewebauthn/server") as never },
    ],
  }
})

async function signInWithPassword() {
  const { csrfToken } = (await (await fakeFetch("/auth/csrf")).json()) as { csrfToken: string }
  await fakeFetch("/auth/callback/password", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }) })
}

describe("@authlib/qwik/passkey", () => {
  it("registers a passkey for the signed-in user, then signs in with it, navigating each time", async () => {
    expect(await supportsPasskeys()).toBe(true)
    await signInWithPassword()
    expect(await registerPasskey({ callbackUrl: `${ORIGIN}/account?added=1` })).toEqual({ ok: true, url: `${ORIGIN}/account?added=1` })
    jar.clear()
    expect(await signInWithPasskey({ callbackUrl: `${ORIGIN}/welcome` })).toEqual({ ok: true, url: `${ORIGIN}/welcome` })
    expect(visited).toEqual([`${ORIGIN}/account?added=1`, `${ORIGIN}/welcome`])
    expect(await (await fakeFetch("/auth/session")).json()).toMatchObject({ user: { name: "Ada" } })
  })

  it("a passkey the server no longer knows: says so, and signals the browser (signalUnknownCredential) to stop offering it", async () => {
    const signals: Array<{ rpId: string; credentialId: string }> = []
    ;(globalThis as unknown as { PublicKeyCredential: Record<string, unknown> }).PublicKeyCredential.signalUnknownCredential = async (o: { rpId: string; credentialId: string }) => void signals.push(o)
    try {
      await signInWithPassword()
      await registerPasskey({ callbackUrl: `${ORIGIN}/account` })
      // The passkey is deleted on the server (another device, or an admin); the browser still has it.
      const adapter = config.adapter as unknown as { listAuthenticatorsByUserId(id: string): Promise<Array<{ credentialID: string }>>; deleteAuthenticator(id: string): Promise<unknown> }
      const [stored] = await adapter.listAuthenticatorsByUserId("ada")
      await adapter.deleteAuthenticator(stored!.credentialID)
      jar.clear()
      const result = await signInWithPasskey({ callbackUrl: `${ORIGIN}/welcome` })
      expect(result).toMatchObject({ failed: true, code: "CREDENTIAL_UNKNOWN", formErrors: ["This passkey is not registered here. Sign in another way, then add it."] })
      expect(signals).toEqual([{ rpId: "localhost", credentialId: device.credentials[0]!.id.toString("base64url") }])
    } finally {
      delete (globalThis as unknown as { PublicKeyCredential: Record<string, unknown> }).PublicKeyCredential.signalUnknownCredential
    }
  })

  it("a refused passkey comes back in the failure shape with core's code; nothing navigates", async () => {
    await signInWithPassword()
    await registerPasskey({ redirect: false })
    jar.clear()
    mode = "tamper"
    expect(await signInWithPasskey()).toEqual({ failed: true, fieldErrors: {}, formErrors: ["The passkey could not be used."], error: "WebAuthnVerificationError", code: "SIGNATURE_INVALID" })
    expect(visited).toEqual([])
  })

  it("a cancelled prompt and a refused options request are failures, not throws", async () => {
    mode = "cancel"
    expect(await signInWithPasskey()).toMatchObject({ failed: true, error: "PasskeyError", code: "PROMPT_CANCELLED", formErrors: ["The passkey prompt was closed or timed out, or no passkey was chosen. Try again."] })
    mode = "answer"
    expect(await registerPasskey()).toMatchObject({ failed: true, error: "WebAuthnVerificationError", code: "REGISTRATION_REQUIRES_SESSION", formErrors: ["Sign in first to add a passkey."] })
  })

  it("at an IP address (the browser's SecurityError, ERROR_INVALID_DOMAIN) the failure says to open the site as localhost, not to check the connection", async () => {
    mode = "refuse"
    refusal = { name: "SecurityError" }
    ;(globalThis.location as { hostname: string }).hostname = "127.0.0.1"
    try {
      const result = await signInWithPasskey()
      expect(result).toMatchObject({ failed: true, error: "PasskeyError", code: "INVALID_DOMAIN" })
      expect("failed" in result && result.formErrors[0]).toContain("Open this site as localhost")
      expect("failed" in result && result.formErrors[0]).not.toMatch(/connection/)
    } finally {
      ;(globalThis.location as { hostname: string }).hostname = "localhost"
    }
  })

  it.each([
    ["SecurityError", "RP_ID_MISMATCH", "another address"],
    ["NotSupportedError", "AUTHENTICATOR_UNSUPPORTED", "Try another one"],
    ["UnknownError", "AUTHENTICATOR_ERROR", "reported an error"],
    ["NotAllowedError", "PROMPT_CANCELLED", "closed or timed out"],
    ["InvalidStateError", "CREDENTIAL_ALREADY_REGISTERED", "already registered"],
  ])("the browser's %s comes back as %s, in words", async (name, code, words) => {
    mode = "refuse"
    refusal = { name }
    const result = await signInWithPasskey()
    expect(result).toMatchObject({ failed: true, error: "PasskeyError", code })
    expect("failed" in result && result.formErrors[0]).toContain(words)
  })
})

describe("@authlib/qwik/passkey: a passkey as the second factor", () => {
  /** Ada with a passkey and TOTP enabled, signed out. */
  async function enrolBoth() {
    config = { ...config, twoFactor: {} }
    await signInWithPassword()
    expect(await registerPasskey({ redirect: false })).toMatchObject({ ok: true })
    const csrf = async () => ((await (await fakeFetch("/auth/csrf")).json()) as { csrfToken: string }).csrfToken
    const post = async (form: Record<string, string>) =>
      fakeFetch("/auth/two-factor", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: new URLSearchParams({ csrfToken: await csrf(), ...form }) })
    const enrolled = await post({ action: "totp-enroll" })
    expect(enrolled.status).toBe(200)
    const { secret } = (await enrolled.json()) as { secret: string }
    expect((await post({ action: "totp-confirm", code: totp(secret, stepAt()) })).status).toBe(200)
    jar.clear()
  }

  it("completes a pending sign-in with the user's passkey: the session, and the browser sent on", async () => {
    await enrolBoth()
    await signInWithPassword()
    expect(jar.get("authlib.two-factor")).toBeDefined()
    expect(await (await fakeFetch("/auth/session")).json()).toBeNull()
    const result = await completeTwoFactorWithPasskey()
    expect(result).toMatchObject({ ok: true })
    expect(visited).toEqual(["url" in result ? result.url : "none"])
    expect(await (await fakeFetch("/auth/session")).json()).toMatchObject({ user: { name: "Ada" } })
  })

  it("without a pending sign-in, or with a tampered assertion, it is a failure with core's code and sets no session", async () => {
    await enrolBoth()
    expect(await completeTwoFactorWithPasskey()).toMatchObject({ failed: true, error: "TwoFactorError", code: "SIGN_IN_MISSING" })
    await signInWithPassword()
    mode = "tamper"
    expect(await completeTwoFactorWithPasskey()).toMatchObject({ failed: true, error: "WebAuthnVerificationError", code: "SIGNATURE_INVALID" })
    expect(await (await fakeFetch("/auth/session")).json()).toBeNull()
    expect(visited).toEqual([])
  })
})
