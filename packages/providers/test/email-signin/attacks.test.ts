/**
 * E-mail sign-in under attack and failure, end to end (real SMTP on loopback, real Postgres in
 * PGlite): replayed and raced links, expiry, another address, tricky addresses, `signIn` refusing
 * before any mail, a forged Host header, and an SMTP server that fails.
 */
import { domainToASCII } from "node:url"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { Browser } from "./helpers/browser.js"
import { deadSmtpUrl, linkOf, startInbox, type Inbox } from "./helpers/smtp.js"
import { APP, setup, startDatabase, type Database } from "./helpers/setup.js"

let inbox: Inbox
let database: Database

beforeAll(async () => {
  ;[inbox, database] = await Promise.all([startInbox(), startDatabase()])
}, 30_000)
afterAll(async () => {
  await inbox?.close()
  await database?.db.close()
})
beforeEach(async () => {
  inbox.received.length = 0
  inbox.rejectRecipients = undefined
  await database.db.exec(`DELETE FROM "authlib_verificationTokens"`)
})
afterEach(() => {
  vi.useRealTimers()
})

const VERIFICATION = `${APP}/auth/error?error=Verification`

/** Requests a link for `email` and opens it: the confirm form, ready to submit. */
async function openedLink(browser: Browser, email: string) {
  await browser.requestLink(email)
  const link = linkOf(inbox.received.at(-1)!)
  return { link, ...(await browser.openLink(link)) }
}

describe("single use", () => {
  it("two concurrent confirms of one link: exactly one session", async () => {
    const { config, events } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    const { action, fields } = await openedLink(browser, "race@example.com")
    const sessionsBefore = await database.count("sessions")
    const [a, b] = await Promise.all([browser.confirm(action, fields), browser.confirm(action, fields)])
    const locations = [a.headers.get("location"), b.headers.get("location")].sort()
    expect(locations).toEqual([`${APP}/`, VERIFICATION].sort())
    const withSession = [a, b].filter((r) => r.headers.getSetCookie().some((c) => c.startsWith("authlib.session-token=") && !c.includes("Max-Age=0")))
    expect(withSession).toHaveLength(1)
    expect(await database.count("sessions")).toBe(sessionsBefore + 1)
    expect(events.filter((e) => e.name === "signIn")).toHaveLength(1)
    expect(events.filter((e) => e.name === "createUser")).toHaveLength(1)
  })

  it("a used link is a Verification error the second time, for anyone", async () => {
    const { config } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    const { action, fields } = await openedLink(browser, "twice@example.com")
    expect((await browser.confirm(action, fields)).headers.get("location")).toBe(`${APP}/`)
    // Opened again in another browser, the used link says so at once (the Xata adapter reads the
    // token unused); and the first browser's form, posted again, is refused too.
    const other = new Browser(config, APP)
    const replay = await other.openLink(linkOf(inbox.received[0]!))
    expect(replay.page.headers.get("location")).toBe(VERIFICATION)
    expect(other.hasSessionCookie()).toBe(false)
    expect((await browser.confirm(action, fields)).headers.get("location")).toBe(VERIFICATION)
  })
})

describe("expiry", () => {
  it("a link is valid for 10 minutes by default: after that, Verification and nothing issued", async () => {
    const { config } = setup(database, inbox.url)
    const late = new Browser(config, APP)
    const start = Date.now()
    const expired = await openedLink(late, "late@example.com")
    const onTime = new Browser(config, APP)
    const fresh = await openedLink(onTime, "ontime@example.com")
    vi.useFakeTimers({ toFake: ["Date"], now: start + 9 * 60_000 })
    expect((await onTime.confirm(fresh.action, fresh.fields)).headers.get("location")).toBe(`${APP}/`)
    vi.setSystemTime(start + 10 * 60_000 + 1000)
    expect((await late.confirm(expired.action, expired.fields)).headers.get("location")).toBe(VERIFICATION)
    expect(late.hasSessionCookie()).toBe(false)
    expect(await database.adapter.getUserByEmail("late@example.com")).toBeNull()
    expect(await database.count("verificationTokens")).toBe(0)
  })

  it("the provider's maxAge shortens it", async () => {
    const { config } = setup(database, inbox.url, {}, { maxAge: 60 })
    const browser = new Browser(config, APP)
    const start = Date.now()
    const { action, fields } = await openedLink(browser, "short@example.com")
    vi.useFakeTimers({ toFake: ["Date"], now: start + 61_000 })
    expect((await browser.confirm(action, fields)).headers.get("location")).toBe(VERIFICATION)
  })
})

describe("another address", () => {
  it("a link whose email was changed signs in nobody; the real address still works", async () => {
    const { config } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    const { action, fields } = await openedLink(browser, "owner@example.com")
    for (const email of ["attacker@example.com", "owner@example.org", "OWNER@example.com,attacker@example.com"]) {
      const res = await browser.confirm(action, { ...fields, email })
      expect(res.headers.get("location")).toBe(VERIFICATION)
    }
    expect(browser.hasSessionCookie()).toBe(false)
    expect(await database.adapter.getUserByEmail("attacker@example.com")).toBeNull()
    expect((await browser.confirm(action, fields)).headers.get("location")).toBe(`${APP}/`)
  })

  it("a made-up or tampered token is a Verification error", async () => {
    const { config } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    const { action, fields } = await openedLink(browser, "tamper@example.com")
    for (const token of ["", "x".repeat(600), fields.token!.slice(0, -1), `${fields.token}A`]) {
      expect((await browser.confirm(action, { ...fields, token })).headers.get("location")).toBe(VERIFICATION)
    }
    expect(await database.count("verificationTokens")).toBe(1)
  })
})

describe("addresses are normalised before anything happens", () => {
  const refused: Array<[string, string]> = [
    ["victim@example.com,attacker@evil.example", "EMAIL_SEVERAL_ADDRESSES"],
    ["victim@example.com attacker@evil.example", "EMAIL_SEVERAL_ADDRESSES"],
    ['"victim@example.com"@evil.example', "EMAIL_FORBIDDEN_CHARACTER"],
    ["Victim <victim@example.com>", "EMAIL_SEVERAL_ADDRESSES"],
    ["victim\uff20example.com", "EMAIL_LOOKALIKE_AT"],
    ["victim@example.com@evil.example", "EMAIL_AT_COUNT"],
    ["victim@example.com\r\nBcc: attacker@evil.example", "EMAIL_CONTROL_CHARACTER"],
    ["vict\u0456m@example.com", "EMAIL_LOCAL_PART_INVALID"],
    ["victim@exa\u200bmple.com", "EMAIL_CONTROL_CHARACTER"],
    ["", "EMAIL_EMPTY"],
    ["victim%corp.example@relay.example", "EMAIL_PERCENT_IN_LOCAL_PART"],
    ["=?utf-8?q?victim=40corp.example?=@mail.example", "EMAIL_ENCODED_WORD"],
  ]

  it.each(refused)("%j: back to the sign-in page with code %s; no mail, no token", async (email, code) => {
    const { config } = setup(database, inbox.url)
    const res = await new Browser(config, APP).requestLink(email)
    const location = new URL(res.headers.get("location")!)
    expect(location.origin + location.pathname).toBe(`${APP}/auth/signin`)
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: "EmailSignInError", code })
    expect(inbox.received).toHaveLength(0)
    expect(await database.count("verificationTokens")).toBe(0)
  })

  it("the sign-in page explains the refusal", async () => {
    const { config } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    const res = await browser.requestLink("a@example.com;b@example.com")
    const page = await browser.request(res.headers.get("location")!)
    expect(await page.text()).toContain("Check the address and try again.")
  })

  it("case, spaces and an internationalised domain reach SMTP in one canonical form", async () => {
    const { config } = setup(database, inbox.url)
    await new Browser(config, APP).requestLink("  Jane.Doe@BÜCHER.Example ")
    // smtp-server shows the envelope's IDN domain decoded; its ASCII form is what was sent.
    const [local, domain] = inbox.received[0]!.to[0]!.split("@")
    expect(`${local}@${domainToASCII(domain!)}`).toBe("jane.doe@xn--bcher-kva.example")
    expect(new URL(linkOf(inbox.received[0]!)).searchParams.get("email")).toBe("jane.doe@xn--bcher-kva.example")
  })
})

describe("signIn decides before any mail is sent", () => {
  it("false: AccessDenied, no mail, no token; it saw email.verificationRequest", async () => {
    const seen: unknown[] = []
    const { config } = setup(database, inbox.url, { callbacks: { signIn: (p) => (seen.push(p), false) } })
    const res = await new Browser(config, APP).requestLink("refused@example.com")
    expect(res.headers.get("location")).toBe(`${APP}/auth/error?error=AccessDenied`)
    expect(seen[0]).toMatchObject({ user: { email: "refused@example.com" }, account: { type: "email", provider: "nodemailer" }, email: { verificationRequest: true } })
    expect(inbox.received).toHaveLength(0)
    expect(await database.count("verificationTokens")).toBe(0)
  })

  it("a URL: redirect there, no mail, no token", async () => {
    const { config } = setup(database, inbox.url, { callbacks: { signIn: () => "/waitlist" } })
    const res = await new Browser(config, APP).requestLink("waiting@example.com")
    expect(res.headers.get("location")).toBe(`${APP}/waitlist`)
    expect(inbox.received).toHaveLength(0)
    expect(await database.count("verificationTokens")).toBe(0)
  })
})

describe("a GET never sends mail", () => {
  it("GET signin/nodemailer?email=... stores nothing and sends nothing", async () => {
    const { config } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    const res = await browser.request("/auth/signin/nodemailer?email=victim%40example.com")
    expect(res.status).toBeLessThan(500)
    expect(res.headers.get("location") ?? "").not.toContain("verify-request")
    expect(inbox.received).toHaveLength(0)
    expect(await database.count("verificationTokens")).toBe(0)
  })
})

describe("Host header spoofing", () => {
  it("a forged Host / X-Forwarded-Host does not change the link or the site name in the mail", async () => {
    const { config } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    const res = await browser.requestLink("spoof@example.com", { callbackUrl: "https://evil.example/steal" }, {
      requestOrigin: "http://evil.example",
      headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    })
    expect(res.headers.get("location")).toBe(`${APP}/auth/verify-request?provider=nodemailer&type=email`)
    const received = inbox.received[0]!
    const link = new URL(linkOf(received))
    expect(link.origin).toBe(APP)
    expect(link.searchParams.get("callbackUrl")).toBe(APP)
    expect(received.mail.subject).toBe("Sign in to app.test:3000")
    expect(`${received.mail.text}${received.mail.html}`).not.toContain("evil.example")
  })
})

describe("SMTP failures", () => {
  it("a refused recipient: EmailSignInError page, the SMTP reply in the log, no usable token", async () => {
    inbox.rejectRecipients = { code: 550, text: "No such user here" }
    const { config, log } = setup(database, inbox.url)
    const res = await new Browser(config, APP).requestLink("nobody@example.com")
    expect(res.headers.get("location")).toBe(`${APP}/auth/error?error=EmailSignInError&code=SMTP_REJECTED`)
    expect(await database.count("verificationTokens")).toBe(0)
    const logged = log.entries.filter((e) => e.level === "error").map((e) => String((e.message[0] as Error).message)).join("\n")
    expect(logged).toContain("No such user here")
  })

  it("an unreachable server: the same, and the error page says the mail could not be sent", async () => {
    const { config, log } = setup(database, await deadSmtpUrl())
    const browser = new Browser(config, APP)
    const res = await browser.requestLink("unreachable@example.com")
    expect(res.headers.get("location")).toBe(`${APP}/auth/error?error=EmailSignInError&code=SMTP_SEND_FAILED`)
    expect(await database.count("verificationTokens")).toBe(0)
    expect(log.entries.some((e) => e.level === "error" && e.code === "EmailSignInError")).toBe(true)
    const page = await browser.request(res.headers.get("location")!)
    expect(page.status).toBe(500)
    const text = await page.text()
    expect(text).toContain("The sign-in email could not be sent. The problem is on this site&#39;s side")
    expect(text).not.toContain("Check the address")
  })
})
