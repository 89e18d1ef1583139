/**
 * The Nodemailer provider end to end: its default `sendVerificationRequest` sends through the real
 * nodemailer transport to a real SMTP server (smtp-server on 127.0.0.1), and the received message
 * is parsed with mailparser.
 */
import type { ParsedMail } from "mailparser"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import * as core from "@authlib/core"
import type { EmailConfig, EmailProviderSendVerificationRequestParams } from "@authlib/core"
import Nodemailer, { DEFAULT_FROM, DEFAULT_MAX_AGE, EmailSignInError, generateVerificationToken, normalizeEmailAddress } from "../src/nodemailer.js"
import { loadNodemailer } from "../src/email/send.js"
import { InvalidProviderOptions } from "../src/errors.js"
import { startSmtp } from "./helpers.js"

let smtp: Awaited<ReturnType<typeof startSmtp>>
let smtpUrl: string
let port: number
/** The messages the SMTP server accepted so far in this test. */
const mails = (): ParsedMail[] => smtp.received.map((r) => r.mail)

beforeAll(async () => {
  smtp = await startSmtp()
  smtpUrl = smtp.url
  port = smtp.port
})
afterAll(() => smtp.close())
beforeEach(() => {
  smtp.received.length = 0
  smtp.state.rejectData = false
})

const LINK = "http://localhost:3000/auth/callback/nodemailer?token=3f9a&email=jane%40example.com"

function params(provider: EmailConfig, overrides: Partial<EmailProviderSendVerificationRequestParams> = {}): EmailProviderSendVerificationRequestParams {
  return {
    identifier: "jane@example.com",
    url: LINK,
    expires: new Date(Date.now() + 600_000),
    provider,
    token: "3f9a",
    theme: {},
    request: new Request("http://localhost:3000/auth/signin/nodemailer", { method: "POST" }),
    ...overrides,
  }
}

async function send(provider: EmailConfig, overrides: Partial<EmailProviderSendVerificationRequestParams> = {}) {
  await provider.sendVerificationRequest(params(provider, overrides))
}

describe("Nodemailer()", () => {
  it("has the e-mail provider defaults: 10-minute links, strict normaliser, random tokens", () => {
    const provider = Nodemailer({ server: "smtp://127.0.0.1:2525" })
    expect(provider).toMatchObject({ id: "nodemailer", type: "email", name: "Email", server: "smtp://127.0.0.1:2525", from: DEFAULT_FROM, maxAge: 600 })
    expect(DEFAULT_MAX_AGE).toBe(600)
    expect(provider.normalizeIdentifier).toBe(normalizeEmailAddress)
    const a = generateVerificationToken()
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(generateVerificationToken()).not.toBe(a)
  })

  it("lets the user's options win and keeps them as options", () => {
    const options = { id: "email", name: "Magic link", server: { host: "127.0.0.1", port: 2525 }, from: "App <app@example.com>", maxAge: 300 }
    const provider = Nodemailer(options)
    expect(provider).toMatchObject({ id: "email", name: "Magic link", from: "App <app@example.com>", maxAge: 300, type: "email" })
    expect(provider.server).toBe(options.server)
    expect(provider.options).toBe(options)
  })

  it("refuses a missing server unless sendVerificationRequest is the user's own", () => {
    expect(() => Nodemailer({})).toThrow(InvalidProviderOptions)
    expect(() => Nodemailer({ server: "" })).toThrow(/"server" is required/)
    const own = async () => {}
    expect(Nodemailer({ sendVerificationRequest: own }).sendVerificationRequest).toBe(own)
  })

  it("refuses a maxAge that is not a positive whole number of seconds", () => {
    for (const maxAge of [0, -1, 1.5, Number.NaN, Infinity]) {
      expect(() => Nodemailer({ server: smtpUrl, maxAge })).toThrow(InvalidProviderOptions)
    }
  })
})

describe("default sendVerificationRequest over SMTP", () => {
  it("sends a text and an HTML version with the site name and the link", async () => {
    await send(Nodemailer({ server: smtpUrl }))
    expect(mails()).toHaveLength(1)
    const mail = mails()[0]!
    expect(smtp.received[0]!.to).toEqual(["jane@example.com"])
    expect(mail.subject).toBe("Sign in to localhost:3000")
    expect(mail.from?.text).toBe(`"authlib" <no-reply@authlib.local>`)
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined).toBe("jane@example.com")
    expect(mail.text).toContain("Sign in to localhost:3000")
    expect(mail.text).toContain(LINK)
    const html = String(mail.html)
    // In HTML the link's "&" is written "&amp;": a parser reads back exactly the link.
    expect(html).toContain(`href="${LINK.replace(/&/g, "&amp;")}"`)
    expect(html).toContain("localhost:3000")
    expect(html.match(/href="([^"]+)"/)![1]!.replace(/&amp;/g, "&")).toBe(LINK)
  })

  it("sends through nodemailer transport options as well as an SMTP URL", async () => {
    await send(Nodemailer({ server: { host: "127.0.0.1", port, secure: false, ignoreTLS: true }, from: "App <app@example.com>" }))
    expect(mails()[0]?.from?.value[0]?.address).toBe("app@example.com")
  })

  it("escapes hostile values from the link and the theme in the HTML, and keeps the text to one line per value", async () => {
    const hostile = `http://localhost:3000/auth/callback/nodemailer?token=t&callbackUrl="><img src=x onerror=alert(1)>&x='\``
    await send(Nodemailer({ server: smtpUrl }), { url: hostile, theme: { brandColor: "red;background:url(javascript:alert(1))", buttonText: "#fff\"><script>" } })
    const html = String(mails()[0]!.html)
    expect(html).not.toContain("<img")
    expect(html).not.toContain("<script")
    expect(html).not.toContain("javascript:")
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")
    expect(html).toContain("background:#346df1")
    expect(mails()[0]!.text).toContain(hostile)
  })

  it("uses a theme's brand colour when it is a plain colour", async () => {
    await send(Nodemailer({ server: smtpUrl }), { theme: { brandColor: "#ff5500", buttonText: "white" } })
    expect(String(mails()[0]!.html)).toContain("background:#ff5500;color:white")
  })

  it("throws EmailSignInError SMTP_REJECTED with the SMTP reply when the server refuses the recipient", async () => {
    const err = await send(Nodemailer({ server: smtpUrl }), { identifier: "nobody@example.com" }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(EmailSignInError)
    expect(err).toMatchObject({ type: "EmailSignInError", code: "SMTP_REJECTED", cause: { provider: "nodemailer", responseCode: 550 } })
    expect((err as EmailSignInError).cause?.response).toContain("No such user here")
    expect(mails()).toHaveLength(0)
  })

  it("throws core's EmailSignInError (the one class, no copy): instanceof holds against @authlib/core", async () => {
    const err = await send(Nodemailer({ server: smtpUrl }), { identifier: "nobody@example.com" }).catch((e: unknown) => e)
    expect(EmailSignInError).toBe(core.EmailSignInError)
    expect(err).toBeInstanceOf(core.EmailSignInError)
    expect(err).toBeInstanceOf(core.AuthError)
    expect((err as core.EmailSignInError).type).toBe("EmailSignInError")
    expect((err as Error).constructor).toBe(core.EmailSignInError)
  })

  it("throws SMTP_REJECTED when the server refuses the message after DATA", async () => {
    smtp.state.rejectData = true
    const err = await send(Nodemailer({ server: smtpUrl })).catch((e: unknown) => e)
    expect(err).toMatchObject({ type: "EmailSignInError", code: "SMTP_REJECTED", cause: { responseCode: 554 } })
    expect((err as EmailSignInError).message).toContain("Message rejected as spam")
  })

  it("throws SMTP_SEND_FAILED when no SMTP server answers", async () => {
    const err = await send(Nodemailer({ server: "smtp://127.0.0.1:1" })).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(EmailSignInError)
    expect(err).toMatchObject({ code: "SMTP_SEND_FAILED" })
    expect((err as EmailSignInError).cause?.err).toBeInstanceOf(Error)
  })

  it("refuses to send when the provider has no server", async () => {
    const provider = { ...Nodemailer({ server: smtpUrl }), server: undefined }
    await expect(send(provider)).rejects.toMatchObject({ type: "EmailSignInError", code: "SMTP_SEND_FAILED" })
  })
})

describe("nodemailer as an optional peer dependency", () => {
  it("loads nodemailer only when asked, and says how to install it when it is missing", async () => {
    expect(typeof (await loadNodemailer()).createTransport).toBe("function")
    const err = await loadNodemailer("nodemailer-not-installed-here").catch((e: unknown) => e)
    expect(err).toBeInstanceOf(core.EmailSignInError)
    expect(err).toMatchObject({ code: "NODEMAILER_MISSING", cause: { package: "nodemailer-not-installed-here" } })
    expect((err as Error).message).toContain("pnpm add nodemailer")
  })
})

describe("html() and text() renderers", () => {
  it("escape every HTML-special character of the link and site name", async () => {
    const { html, text } = await import("../src/nodemailer.js")
    const out = html({ url: `https://a.example/?q=<b>&r="'\``, host: "a.example" })
    expect(out).toContain("https://a.example/?q=&lt;b&gt;&amp;r=&quot;&#39;&#96;")
    expect(out).not.toContain("<b>")
    // The site name cannot be auto-linked by mail clients: a zero-width space precedes each dot.
    expect(out).toContain("a&#8203;.example")
    expect(text({ url: "https://a.example/", host: "a.example" })).toBe("Sign in to a.example\n\nOpen this link to sign in:\nhttps://a.example/\n\nIf you did not ask for this e-mail, you can ignore it.\n")
  })

  it("cannot be made to forge extra lines in the text version", async () => {
    const { text } = await import("../src/nodemailer.js")
    const out = text({ url: "https://a.example/\r\n\r\nClick https://evil.example instead", host: "a.example\nevil" })
    expect(out.split("\n")).toHaveLength(7)
    expect(out).toContain("https://a.example/ Click https://evil.example instead")
  })
})
