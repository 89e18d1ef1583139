import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { Auth, AuthError, normalizeEmailAddress } from "../../../src/index.js"
import { EmailSignInError } from "../../../src/kernel/errors/errors.js"
import { hashToken } from "../../../src/capabilities/email/index.js"
import { ORIGIN, recordingLogger, SECRET, setCookies } from "../../helpers/harness.js"
import { emailSetup, followLink, formFields, requestLink } from "./helpers.js"

const SESSION = "authlib.session-token"

describe("POST /auth/signin/email", () => {
  it("stores only the hash of the token, with a 10-minute expiry, and sends the link", async () => {
    const { client, adapter, outbox } = emailSetup()
    const before = Date.now()
    const res = await requestLink(client, "  Jane@Example.COM ", { callbackUrl: "/welcome" })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/verify-request?provider=email&type=email`)
    expect(outbox.sent).toHaveLength(1)
    const mail = outbox.sent[0]!
    expect(mail.identifier).toBe("jane@example.com")
    const link = new URL(mail.url)
    expect(`${link.origin}${link.pathname}`).toBe(`${ORIGIN}/auth/callback/email`)
    expect(Object.fromEntries(link.searchParams)).toEqual({ callbackUrl: `${ORIGIN}/welcome`, token: mail.token, email: "jane@example.com" })
    expect(mail.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(adapter.tokens).toHaveLength(1)
    const stored = adapter.tokens[0]!
    expect(stored.token).not.toContain(mail.token)
    expect(stored.token).toBe(createHash("sha256").update(`${mail.token}${SECRET}`).digest("hex"))
    expect(stored.expires.getTime()).toBe(mail.expires.getTime())
    expect(stored.expires.getTime() - before).toBeGreaterThanOrEqual(600_000)
    expect(stored.expires.getTime() - Date.now()).toBeLessThanOrEqual(600_000)
    expect(mail.request).toBeInstanceOf(Request)
    expect(await mail.request.text()).toContain("email=")
  })

  it("uses the provider's maxAge, generateVerificationToken and own secret", async () => {
    const { client, adapter, outbox } = emailSetup({}, { maxAge: 60, generateVerificationToken: () => "custom-token-0123456789", secret: "provider-secret" })
    await requestLink(client, "jane@example.com")
    expect(outbox.sent[0]!.token).toBe("custom-token-0123456789")
    expect(adapter.tokens[0]!.token).toBe(await hashToken("custom-token-0123456789", "provider-secret"))
    expect(adapter.tokens[0]!.expires.getTime() - Date.now()).toBeLessThanOrEqual(60_000)
    const { done } = await followLink(client, outbox.sent[0]!.url)
    expect(setCookies(done).some((c) => c.name === SESSION && c.value)).toBe(true)
  })

  it("goes to pages.verifyRequest when set, and answers { url } to X-Auth-Return-Redirect callers", async () => {
    const { client, outbox } = emailSetup({ pages: { verifyRequest: "/check-mail" } })
    const res = await requestLink(client, "jane@example.com", {}, { headers: { "x-auth-return-redirect": "1" } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ url: `${ORIGIN}/check-mail?provider=email&type=email` })
    expect(outbox.sent).toHaveLength(1)
  })

  it("hands the provider, the theme and the expiry to sendVerificationRequest", async () => {
    const { client, outbox } = emailSetup({ theme: { brandColor: "#123456" } }, { maxAge: 120 })
    await requestLink(client, "jane@example.com")
    const mail = outbox.sent[0]!
    expect(mail.provider).toMatchObject({ id: "email", type: "email", maxAge: 120 })
    expect(mail.theme).toMatchObject({ brandColor: "#123456" })
    expect(mail.expires.getTime() - Date.now()).toBeGreaterThan(110_000)
  })

  it("a generator that returns no string is a Configuration error, and nothing is stored", async () => {
    const { logger, entries } = recordingLogger()
    const { client, adapter, outbox } = emailSetup({ logger }, { generateVerificationToken: () => "" })
    const res = await requestLink(client, "jane@example.com")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(entries.some((e) => e.level === "error" && (e.message[0] as AuthError).code === "TOKEN_GENERATOR_INVALID")).toBe(true)
    expect(adapter.tokens).toHaveLength(0)
    expect(outbox.sent).toHaveLength(0)
  })

  it("builds the link from the configured url, whatever Host and X-Forwarded-* say", async () => {
    const { client, outbox } = emailSetup({ url: "https://app.example.com" })
    const res = await requestLink(client, "jane@example.com", {}, {
      headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http", origin: ORIGIN },
    })
    expect(res.headers.get("location")).toBe("https://app.example.com/auth/verify-request?provider=email&type=email")
    expect(new URL(outbox.sent[0]!.url).origin).toBe("https://app.example.com")
  })

  it("without a configured url, warns once that links follow the request's Host", async () => {
    const { logger, entries } = recordingLogger()
    const { client } = emailSetup({ logger })
    await requestLink(client, "jane@example.com")
    await requestLink(client, "jane@example.com")
    expect(entries.filter((e) => e.code === "email-link-origin")).toHaveLength(1)
  })

  it("a refused address goes back to the sign-in page with the rule's code: nothing stored or sent", async () => {
    const { client, adapter, outbox } = emailSetup()
    for (const [email, code] of [
      ["victim@example.com,attacker@evil.example", "EMAIL_SEVERAL_ADDRESSES"],
      ["victim\uff20example.com", "EMAIL_LOOKALIKE_AT"],
      ['"victim@example.com"@evil.example', "EMAIL_FORBIDDEN_CHARACTER"],
      ["", "EMAIL_EMPTY"],
      ["victim%corp.example@relay.example", "EMAIL_PERCENT_IN_LOCAL_PART"],
      ["=?utf-8?q?victim=40corp.example?=@mail.example", "EMAIL_ENCODED_WORD"],
    ] as const) {
      const res = await requestLink(client, email)
      const location = new URL(res.headers.get("location")!)
      expect(location.pathname).toBe("/auth/signin")
      expect(location.searchParams.get("error")).toBe("EmailSignInError")
      expect(location.searchParams.get("code")).toBe(code)
    }
    expect(adapter.tokens).toHaveLength(0)
    expect(adapter.writes()).toEqual([])
    expect(outbox.sent).toHaveLength(0)
  })

  it("a provider opts into % and encoded-words with normalizeEmailAddress's options", async () => {
    const { client, outbox } = emailSetup({}, {
      normalizeIdentifier: (id: string) => normalizeEmailAddress(id, { allowPercentInLocalPart: true, allowEncodedWords: true }),
    })
    for (const email of ["Victim%Corp.example@relay.example", "=?utf-8?q?x?=@mail.example"]) {
      const res = await requestLink(client, email)
      expect(new URL(res.headers.get("location")!).pathname).toBe("/auth/verify-request")
    }
    expect(outbox.sent.map((m) => m.identifier)).toEqual(["victim%corp.example@relay.example", "=?utf-8?q?x?=@mail.example"])
  })

  it("a custom normalizeIdentifier is used; whatever it throws is EMAIL_REFUSED", async () => {
    const { client, outbox } = emailSetup({}, {
      normalizeIdentifier: (id: string) => {
        if (id.endsWith("@blocked.example")) throw new Error("blocked domain")
        return id.trim()
      },
    })
    const res = await requestLink(client, "anyone@blocked.example")
    expect(new URL(res.headers.get("location")!).searchParams.get("code")).toBe("EMAIL_REFUSED")
    await requestLink(client, "Keep.Case@Example.com")
    expect(outbox.sent[0]!.identifier).toBe("Keep.Case@Example.com")
  })

  it("asks signIn with email.verificationRequest before anything is stored", async () => {
    const calls: unknown[] = []
    const { client, adapter } = emailSetup({ callbacks: { signIn: (p) => (calls.push({ ...p, tokens: adapter.tokens.length }), true) } })
    await requestLink(client, "jane@example.com")
    expect(calls[0]).toEqual({
      user: { email: "jane@example.com" },
      account: { provider: "email", providerAccountId: "jane@example.com", type: "email" },
      email: { verificationRequest: true },
      tokens: 0,
    })
  })

  it("signIn false -> AccessDenied; a URL -> redirect there; no token, no mail", async () => {
    for (const [answer, location] of [[false, `${ORIGIN}/auth/error?error=AccessDenied`], ["/not-allowed", `${ORIGIN}/not-allowed`]] as const) {
      const { client, adapter, outbox } = emailSetup({ callbacks: { signIn: () => answer } })
      const res = await requestLink(client, "jane@example.com")
      expect(res.headers.get("location")).toBe(location)
      expect(adapter.writes()).toEqual([])
      expect(outbox.sent).toHaveLength(0)
    }
  })

  it("a failed send removes the token, logs the sender's error and shows EmailSignInError", async () => {
    const { logger, entries } = recordingLogger()
    const { client, adapter, outbox } = emailSetup({ logger })
    outbox.failWith = new Error("connect ECONNREFUSED 127.0.0.1:25")
    const res = await requestLink(client, "jane@example.com")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=EmailSignInError&code=SEND_FAILED`)
    expect(adapter.tokens).toHaveLength(0)
    expect(adapter.writes()).toEqual(["createVerificationToken", "useVerificationToken"])
    expect(entries.some((e) => e.level === "error" && (e.message[0] as Error).message.includes("ECONNREFUSED"))).toBe(true)
  })

  it("EmailSignInError is client-safe and keeps the code of a sender's AuthError", () => {
    expect((EmailSignInError as typeof AuthError).clientSafe).toBe(true)
    expect(new EmailSignInError("x", { code: "SMTP_REJECTED" }).type).toBe("EmailSignInError")
  })
})

describe("configuration", () => {
  it("an e-mail provider without an adapter is a Configuration error naming the missing methods", async () => {
    const { logger, entries } = recordingLogger()
    const { client, outbox } = emailSetup({ adapter: undefined, logger })
    const res = await requestLink(client, "jane@example.com")
    expect(res.status).toBe(500)
    expect(res.headers.get("location")).toBeNull()
    const logged = entries.find((e) => e.level === "error")!.message[0] as AuthError
    expect(logged.type).toBe("MissingAdapterMethods")
    expect(logged.message).toContain("createVerificationToken, useVerificationToken, getUserByEmail")
    expect(outbox.sent).toHaveLength(0)
  })
})

describe("GET /auth/callback/email (the link)", () => {
  it("shows a confirm page that cannot be framed and consumes nothing", async () => {
    const { client, adapter, outbox } = emailSetup()
    await requestLink(client, "jane@example.com")
    const writes = adapter.writes().length
    for (let i = 0; i < 3; i++) {
      const url = new URL(outbox.sent[0]!.url)
      const page = await client.request(url.pathname + url.search, { noJar: true })
      expect(page.status).toBe(200)
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
      expect(page.headers.get("x-frame-options")).toBe("DENY")
      // The token in the URL never leaves the site, yet the button's POST keeps a real Origin.
      expect(page.headers.get("referrer-policy")).toBe("same-origin")
      const html = await page.text()
      expect(html).toContain("jane@example.com")
      expect(formFields(html)).toMatchObject({ token: outbox.sent[0]!.token, email: "jane@example.com" })
    }
    expect(adapter.writes()).toHaveLength(writes)
    expect(adapter.tokens).toHaveLength(1)
    expect(setCookies((await client.request(new URL(outbox.sent[0]!.url).pathname))).length).toBe(0)
  })

  it("a used, made-up, other-address or expired link says so when opened, not after the click (and still consumes nothing)", async () => {
    const { client, adapter, outbox } = emailSetup()
    await requestLink(client, "jane@example.com")
    await requestLink(client, "max@example.com")
    const [jane, max] = outbox.sent.map((m) => new URL(m.url))
    const opened = (url: URL) => client.request(url.pathname + url.search, { noJar: true })
    // Jane's token with Max's address, and a made-up token: unknown.
    const swapped = new URL(jane!.href)
    swapped.searchParams.set("email", "max@example.com")
    const madeUp = new URL(jane!.href)
    madeUp.searchParams.set("token", "made-up-token-0123456789")
    for (const url of [swapped, madeUp]) expect((await opened(url)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(adapter.tokens).toHaveLength(2)
    // Used: Jane signs in, then opens her link again.
    await followLink(client, jane!.href)
    expect((await opened(jane!)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    // Expired: Max's record runs out.
    const record = adapter.tokens.find((t) => t.identifier === "max@example.com")!
    record.expires = new Date(Date.now() - 1000)
    expect((await opened(max!)).headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(adapter.tokens).toHaveLength(1)
  })

  it("with an adapter that cannot read a token unused (an Auth.js adapter), the page is shown and the POST decides", async () => {
    const adapter = memoryAdapter()
    Object.assign(adapter, { getVerificationToken: undefined })
    const { client, outbox } = emailSetup({}, {}, adapter)
    await requestLink(client, "jane@example.com")
    const url = new URL(outbox.sent[0]!.url)
    url.searchParams.set("token", "made-up-token-0123456789")
    expect((await client.request(url.pathname + url.search)).status).toBe(200)
  })

  it("a link without token or with a refused address is a Verification error", async () => {
    const { client } = emailSetup()
    for (const query of ["?email=jane%40example.com", "?token=abc&email=a%40b%2Cc%40d.example", "?token=abc"]) {
      const res = await client.request(`/auth/callback/email${query}`)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    }
  })
})

describe("POST /auth/callback/email (the confirm button)", () => {
  it("signs in once; replaying the same form is a Verification error", async () => {
    const { client, outbox, adapter } = emailSetup()
    await requestLink(client, "jane@example.com", { callbackUrl: "/home" })
    const { page, done } = await followLink(client, outbox.sent[0]!.url)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/home`)
    expect(adapter.sessions.size).toBe(1)
    // The same form posted again (the page is long gone: its GET now refuses the used link too).
    const again = await client.request("/auth/callback/email", { method: "POST", form: formFields(await page.text()) })
    expect(again.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(adapter.sessions.size).toBe(1)
  })

  it("an expired link is a Verification error, consumes the record and issues nothing", async () => {
    const { client, outbox, adapter } = emailSetup()
    await requestLink(client, "jane@example.com")
    // Opened in time, confirmed too late.
    const url = new URL(outbox.sent[0]!.url)
    const page = await client.request(url.pathname + url.search)
    adapter.tokens[0]!.expires = new Date(Date.now() - 1000)
    const done = await client.request(url.pathname, { method: "POST", form: formFields(await page.text()) })
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(adapter.tokens).toHaveLength(0)
    expect(adapter.sessions.size).toBe(0)
    expect(adapter.users.size).toBe(0)
  })

  it("needs the CSRF token", async () => {
    const { client, outbox, adapter } = emailSetup()
    await requestLink(client, "jane@example.com")
    const { token, email } = Object.fromEntries(new URL(outbox.sent[0]!.url).searchParams)
    const res = await client.request("/auth/callback/email", { method: "POST", form: { token: token!, email: email! } })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`)
    expect(adapter.tokens).toHaveLength(1)
  })

  it("a token hashed with an older secret still works after rotation", async () => {
    const { client, outbox, config } = emailSetup({ secret: "old-secret-0123456789-abcdefghijklmnopqrstuvwxyz" })
    await requestLink(client, "jane@example.com")
    const rotated = { ...config, secret: ["new-secret-0123456789-abcdefghijklmnopqrstuvwxyz", "old-secret-0123456789-abcdefghijklmnopqrstuvwxyz"] }
    const link = new URL(outbox.sent[0]!.url)
    const page = await Auth(new Request(link), rotated)
    const csrf = setCookies(page).find((c) => c.name === "authlib.csrf-token")!
    const body = new URLSearchParams(formFields(await page.text()))
    const done = await Auth(new Request(`${ORIGIN}/auth/callback/email`, { method: "POST", body, headers: { origin: ORIGIN, cookie: `${csrf.name}=${csrf.value}`, "content-type": "application/x-www-form-urlencoded" } }), rotated)
    expect(setCookies(done).some((c) => c.name === SESSION && c.value)).toBe(true)
  })

  it("refuses a record for another address even when the adapter ignores the identifier", async () => {
    const { client, outbox, adapter } = emailSetup()
    // Patched before the first request: the config resolves (and wraps) the adapter then.
    adapter.useVerificationToken = async ({ token }) => {
      const i = adapter.tokens.findIndex((t) => t.token === token)
      return i < 0 ? null : adapter.tokens.splice(i, 1)[0]!
    }
    await requestLink(client, "jane@example.com")
    const link = new URL(outbox.sent[0]!.url)
    link.searchParams.set("email", "mallory@example.com")
    const { done } = await followLink(client, link.href)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
  })

  it("the second signIn call has no email field; refusing it consumes the token and issues nothing", async () => {
    const calls: Array<Record<string, unknown>> = []
    const { client, outbox, adapter } = emailSetup({ callbacks: { signIn: (p) => (calls.push(p as never), calls.length === 1) } })
    await requestLink(client, "jane@example.com")
    const { done } = await followLink(client, outbox.sent[0]!.url)
    expect(calls[1]).not.toHaveProperty("email")
    expect(calls[1]!.account).toEqual({ provider: "email", providerAccountId: "jane@example.com", type: "email" })
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(adapter.tokens).toHaveLength(0)
    expect(adapter.sessions.size).toBe(0)
    expect(adapter.users.size).toBe(0)
  })
})
