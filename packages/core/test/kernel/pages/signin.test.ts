import { describe, expect, it } from "vitest"
import { buttonPart, renderSignInPage } from "../../../src/kernel/pages/index.js"
import type { SignInPageParams, SignInPageProvider } from "../../../src/kernel/pages/index.js"
import type { CredentialInput, OAuthProviderButtonStyles } from "../../../src/kernel/types/providers.js"
import { REGISTRY } from "../../../src/registry.js"
import { bodyText, documentProblems, forms, hidden, skeleton, styleOf, tags, theme, XSS } from "./helpers.js"

/** A provider as these tests describe it: its config and the URLs the page links to. */
interface TestProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
  style?: OAuthProviderButtonStyles
  credentials?: Record<string, CredentialInput>
}

/** The provider as the sign-in route lists it: its sign-in type's part (a type without one: a plain button). */
function listed(p: TestProvider): SignInPageProvider {
  const declared = REGISTRY.signInType(p.type as never)
  const part = declared ? declared.page(p, { signinUrl: p.signinUrl, callbackUrl: p.callbackUrl, actionBase: "/auth" }) : buttonPart(p, p.signinUrl, false)
  return p.style ? { style: p.style, part } : { part }
}

const github: TestProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: "https://app.example/auth/signin/github",
  callbackUrl: "https://app.example/auth/callback/github",
  style: { brandColor: "#24292f", logo: "https://cdn.example/github.svg" },
}
const email: TestProvider = {
  id: "nodemailer",
  name: "Email",
  type: "email",
  signinUrl: "/auth/signin/nodemailer",
  callbackUrl: "/auth/callback/nodemailer",
}
const credentials: TestProvider = {
  id: "credentials",
  name: "Password",
  type: "credentials",
  signinUrl: "/auth/signin/credentials",
  callbackUrl: "/auth/callback/credentials",
  credentials: {
    username: { label: "Username", placeholder: "jsmith", required: true, autocomplete: "username" },
    password: { label: "Password", type: "password", required: true },
  },
}

function page({ providers = [github, email, credentials], ...overrides }: Partial<Omit<SignInPageParams, "providers">> & { providers?: TestProvider[] } = {}): string {
  return renderSignInPage({
    providers: providers.map(listed),
    csrfToken: "csrf-123",
    callbackUrl: "https://app.example/dashboard",
    theme,
    ...overrides,
  })
}

describe("renderSignInPage forms", () => {
  it("is a complete document without scripts", () => {
    expect(documentProblems(page())).toEqual([])
  })

  it("posts an OAuth provider to its signinUrl with the CSRF token and callbackUrl", () => {
    const [form] = forms(page())
    expect(form!.attrs).toMatchObject({ method: "POST", action: github.signinUrl })
    expect(hidden(form!)).toEqual({ csrfToken: "csrf-123", callbackUrl: "https://app.example/dashboard" })
    expect(form!.buttons).toEqual(["Sign in with GitHub"])
    expect(tags(page(), "img")).toContainEqual(expect.objectContaining({ src: github.style!.logo, alt: "" }))
  })

  it("posts the e-mail provider to its signinUrl with a labelled email input", () => {
    const form = forms(page({ email: "ada@example.com" }))[1]!
    expect(form.attrs).toMatchObject({ method: "POST", action: email.signinUrl })
    expect(hidden(form)).toEqual({ csrfToken: "csrf-123", callbackUrl: "https://app.example/dashboard" })
    const input = form.inputs.find((i) => i.name === "email")!
    expect(input).toMatchObject({ type: "email", autocomplete: "email", required: "", value: "ada@example.com" })
    expect(form.labels).toEqual([{ for: input.id, text: "Email" }])
    expect(form.buttons).toEqual(["Sign in with Email"])
  })

  it("posts credentials to the provider's callbackUrl with one labelled input per field", () => {
    const form = forms(page())[2]!
    expect(form.attrs).toMatchObject({ method: "POST", action: credentials.callbackUrl })
    expect(hidden(form)).toEqual({ csrfToken: "csrf-123", callbackUrl: "https://app.example/dashboard" })
    const visible = form.inputs.filter((i) => i.type !== "hidden")
    expect(visible).toEqual([
      { id: visible[0]!.id, type: "text", name: "username", placeholder: "jsmith", autocomplete: "username", required: "" },
      { id: visible[1]!.id, type: "password", name: "password", autocomplete: "current-password", required: "" },
    ])
    expect(form.labels).toEqual([
      { for: visible[0]!.id, text: "Username" },
      { for: visible[1]!.id, text: "Password" },
    ])
  })

  it("gives every input a unique id, also with two forms of the same kind", () => {
    const html = page({ providers: [email, { ...email, id: "other" }, credentials, credentials] })
    const ids = tags(html, "input").map((i) => i.id).filter(Boolean)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.length).toBe(6)
  })

  it("labels a credentials field by its key when it has no label, and falls back to type text", () => {
    const provider = { ...credentials, credentials: { otp: { type: "image" } } }
    const form = forms(page({ providers: [provider] }))[0]!
    expect(form.labels[0]!.text).toBe("otp")
    expect(form.inputs.find((i) => i.name === "otp")).toMatchObject({ type: "text" })
  })

  it("renders a provider whose type has no sign-in type in this version as a plain POST button to its signinUrl", () => {
    const unknown: TestProvider = { id: "corp", name: "Corp", type: "saml", signinUrl: "/auth/signin/corp", callbackUrl: "/auth/callback/corp" }
    const [form] = forms(page({ providers: [unknown] }))
    expect(form!.attrs).toMatchObject({ method: "POST", action: "/auth/signin/corp" })
    expect(form!.buttons).toEqual(["Sign in with Corp"])
  })

  it("renders a passkey provider as its sign-in type's form: posts to its callbackUrl, options from its options route, with the page's script", () => {
    const passkey: TestProvider = { id: "passkey", name: "Passkey", type: "webauthn", signinUrl: "/auth/signin/passkey", callbackUrl: "/auth/callback/passkey" }
    const html = page({ providers: [passkey] })
    const [form] = forms(html)
    expect(form!.attrs).toMatchObject({ method: "POST", action: "/auth/callback/passkey", "data-passkey-options": "/auth/webauthn-options/passkey" })
    expect(form!.buttons).toEqual(["Sign in with Passkey"])
    expect(tags(html, "script")).toHaveLength(1)
  })

  it("says so when no provider is configured", () => {
    const html = page({ providers: [] })
    expect(forms(html)).toEqual([])
    expect(bodyText(html)).toContain("No sign-in methods are configured.")
  })
})

describe("renderSignInPage errors", () => {
  const cases: Array<[string, string]> = [
    ["CredentialsSignin", "Sign in failed. Check the details you provided are correct."],
    ["OAuthAccountNotLinked", "already linked to another sign-in method"],
    ["AccessDenied", "You do not have permission to sign in."],
    ["Verification", "The sign-in link is no longer valid."],
    ["EmailSignInError", "The sign-in email could not be sent."],
    ["OAuthSignInError", "could not be started"],
    ["OAuthCallbackError", "could not be processed"],
    ["Configuration", "problem with the server configuration"],
    ["MissingCSRF", "The form could not be verified"],
  ]
  it.each(cases)("shows %s as a human message in an alert", (error, message) => {
    const html = page({ error })
    expect(html).toContain('role="alert"')
    expect(bodyText(html)).toContain(message)
    expect(bodyText(html)).not.toContain(error)
  })

  it.each(["SomethingNew", "constructor", "__proto__", "toString", ...XSS])(
    "shows the generic message for the unknown type %j and never echoes it",
    (error) => {
      const html = page({ error })
      expect(bodyText(html)).toContain("Something went wrong while signing in.")
      expect(html).not.toContain(error)
      expect(skeleton(html)).toEqual(skeleton(page({ error: "Unknown" })))
    },
  )

  it("shows no alert without an error", () => {
    expect(page()).not.toContain('role="alert"')
  })

  it("shows no code, whatever its shape: the message says what happened, the code stays in the URL and the log", () => {
    const shown = bodyText(page({ error: "CredentialsSignin", code: "credentials" }))
    expect(shown).toContain("Sign in failed. Check the details you provided are correct.")
    expect(shown).not.toMatch(/code|credentials/i)
    for (const code of ["invalid_otp", ...XSS, "Call 555-0100 to unlock", "visit.evil.example", "a".repeat(33)]) {
      const html = page({ error: "CredentialsSignin", code })
      expect(bodyText(html)).not.toContain("Error code")
      expect(html).not.toContain(code)
    }
    expect(bodyText(page({ error: "AccessDenied", code: "invalid_otp" }))).not.toContain("invalid_otp")
  })
})

describe("renderSignInPage escaping", () => {
  const baseline = skeleton(page())

  const withField = (v: string): TestProvider => ({
    ...credentials,
    name: v,
    credentials: { [v]: { label: v, placeholder: v, value: v, autocomplete: v, type: v } },
  })

  it.each(XSS)("escapes provider names, labels, placeholders and values: %j", (payload) => {
    const html = page({ providers: [github, email, withField(payload)] })
    expect(skeleton(html)).toEqual(skeleton(page({ providers: [github, email, withField("benign")] })))
    expect(documentProblems(html)).toEqual([])
    const form = forms(html)[2]!
    expect(form.buttons).toEqual([`Sign in with ${payload}`])
    expect(form.labels[0]!.text).toBe(payload)
    expect(form.inputs.find((i) => i.type === "text")).toMatchObject({ name: payload, placeholder: payload, value: payload, autocomplete: payload })
  })

  it.each(XSS)("escapes csrfToken, callbackUrl and the prefilled email: %j", (payload) => {
    const html = page({ csrfToken: payload, callbackUrl: payload, email: payload })
    expect(skeleton(html)).toEqual(baseline)
    for (const form of forms(html)) expect(hidden(form)).toEqual({ csrfToken: payload, callbackUrl: payload })
    expect(forms(html)[1]!.inputs.find((i) => i.name === "email")!.value).toBe(payload)
  })

  it.each(["javascript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)", "data:text/html,x", "vbscript:x"])(
    "makes a %j form action inert",
    (url) => {
      const html = page({ providers: [{ ...github, signinUrl: url }, { ...email, signinUrl: url }, { ...credentials, callbackUrl: url }] })
      expect(forms(html).map((f) => f.attrs.action)).toEqual(["about:blank", "about:blank", "about:blank"])
    },
  )

  it.each(["javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>", "\u0000javascript:x", "\tjavascript:x"])(
    "drops the provider logo %j unless it is an http(s) URL",
    (logo) => {
      const html = page({ providers: [{ ...github, style: { logo } }] })
      expect(tags(html, "img")).toEqual([])
      expect(documentProblems(html)).toEqual([])
    },
  )

  it("keeps a relative logo path and escapes it", () => {
    const logo = '/img/gh.svg?a=1&b="2" onerror="alert(1)'
    const html = page({ providers: [{ ...github, style: { logo } }] })
    expect(tags(html, "img")[0]!.src).toBe(logo)
    expect(html).toContain('src="/img/gh.svg?a=1&amp;b=&quot;2&quot; onerror=&quot;alert(1)"')
    expect(documentProblems(html)).toEqual([])
  })

  it("puts a valid provider colour in the stylesheet, keyed by index, and drops CSS injection", () => {
    expect(styleOf(page())).toContain(".provider-0{--btn-bg:#24292f;--btn-fg:#fff;--btn-border:#24292f}")
    for (const brandColor of ["red;}body{display:none", "#fff</style><script>", "url(javascript:alert(1))", "expression(alert(1))"]) {
      const html = page({ providers: [{ ...github, id: "a{}", style: { brandColor, bg: brandColor, text: brandColor } }] })
      expect(styleOf(html)).not.toContain(".provider-0")
      expect(styleOf(html)).not.toContain(brandColor)
    }
  })

  it("uses the deprecated bg and text styles when brandColor is absent", () => {
    const html = page({ providers: [{ ...github, style: { bg: "#ffffff", text: "#000" } }] })
    expect(styleOf(html)).toContain(".provider-0{--btn-bg:#ffffff;--btn-fg:#000;--btn-border:var(--input-border)}")
  })
})
