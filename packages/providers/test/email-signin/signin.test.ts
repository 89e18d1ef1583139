/**
 * E-mail sign-in end to end: `Auth()` from @authlib/core with the Nodemailer provider sending
 * through the real nodemailer transport to smtp-server on 127.0.0.1, the mail parsed with
 * mailparser, the link followed through the confirm page; users, accounts, sessions and tokens in
 * real Postgres (PGlite) through the Xata adapter.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Browser } from "./helpers/browser.js"
import { linkOf, startInbox, type Inbox } from "./helpers/smtp.js"
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
beforeEach(() => {
  inbox.received.length = 0
  inbox.rejectRecipients = undefined
})

async function signInByMail(browser: Browser, email: string, callbackUrl = "/dashboard") {
  const requested = await browser.requestLink(email, { callbackUrl })
  expect(requested.headers.get("location")).toBe(`${APP}/auth/verify-request?provider=nodemailer&type=email`)
  const mail = inbox.received.at(-1)!
  const { page, action, fields } = await browser.openLink(linkOf(mail))
  expect(page.status).toBe(200)
  return { mail, done: await browser.confirm(action, fields) }
}

describe("database sessions: a new address", () => {
  it("mail -> link -> confirm -> session, with the user created, verified and linked", async () => {
    const { config, events } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    const { mail, done } = await signInByMail(browser, "  New.User@Example.COM ")

    expect(mail.to).toEqual(["new.user@example.com"])
    expect(mail.mail.subject).toBe("Sign in to app.test:3000")
    expect(mail.mail.from?.text).toBe('"Test App" <login@app.test>')
    const link = new URL(linkOf(mail))
    expect(link.origin + link.pathname).toBe(`${APP}/auth/callback/nodemailer`)
    expect(link.searchParams.get("email")).toBe("new.user@example.com")
    expect(link.searchParams.get("callbackUrl")).toBe(`${APP}/dashboard`)

    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${APP}/dashboard`)
    expect(browser.hasSessionCookie()).toBe(true)
    expect((await browser.session())?.user?.email).toBe("new.user@example.com")

    const user = await database.adapter.getUserByEmail("new.user@example.com")
    expect(user?.emailVerified).toBeInstanceOf(Date)
    const owner = await database.adapter.getUserByAccount({ provider: "nodemailer", providerAccountId: "new.user@example.com" })
    expect(owner?.id).toBe(user!.id)
    expect(await database.count("verificationTokens")).toBe(0)

    expect(events.map((e) => e.name)).toEqual(["createUser", "linkAccount", "signIn", "session"])
    expect(events[0]!.message.user).toMatchObject({ id: user!.id, email: "new.user@example.com" })
    expect(events[1]!.message.account).toMatchObject({ type: "email", provider: "nodemailer", providerAccountId: "new.user@example.com", userId: user!.id })
    expect(events[2]!.message).toMatchObject({ isNewUser: true, user: { id: user!.id }, account: { type: "email" } })
  })

  it("the default mail has text and HTML versions naming the site, with the same link", async () => {
    const { config } = setup(database, inbox.url)
    await new Browser(config, APP).requestLink("parts@example.com")
    const { mail } = inbox.received[0]!
    expect(mail.text).toContain("Sign in to app.test:3000")
    expect(mail.html).toContain("app&#8203;.test:3000")
    expect(linkOf(inbox.received[0]!)).toMatch(/^http:\/\/app\.test:3000\/auth\/callback\/nodemailer\?/)
  })
})

describe("database sessions: an address that has a user already", () => {
  it("sets emailVerified (updateUser), links the e-mail account, and reuses the user", async () => {
    const existing = await database.adapter.createUser({ id: crypto.randomUUID(), email: "known@example.com", emailVerified: null, name: "Known" })
    const { config, events } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    const { done } = await signInByMail(browser, "known@example.com")
    expect(done.headers.get("location")).toBe(`${APP}/dashboard`)
    expect((await browser.session())?.user).toMatchObject({ email: "known@example.com", name: "Known" })
    expect(events.map((e) => e.name)).toEqual(["updateUser", "linkAccount", "signIn", "session"])
    expect(events[0]!.message.user).toMatchObject({ id: existing.id, emailVerified: expect.any(Date) })
    expect(events[2]!.message).toMatchObject({ isNewUser: false, user: { id: existing.id } })
    expect((await database.adapter.getUserByEmail("known@example.com"))?.emailVerified).toBeInstanceOf(Date)

    const again = setup(database, inbox.url)
    await signInByMail(new Browser(again.config, APP), "known@example.com")
    expect(again.events.map((e) => e.name)).toEqual(["signIn"])
  })
})

describe("JWT sessions", () => {
  it("the same flow issues an encrypted session token for the stored user", async () => {
    const { config, events } = setup(database, inbox.url, { session: { strategy: "jwt" } })
    const browser = new Browser(config, APP)
    const sessionsBefore = await database.count("sessions")
    const { done } = await signInByMail(browser, "jwt.user@example.com", "/after")
    expect(done.headers.get("location")).toBe(`${APP}/after`)
    const token = [...browser.jar].find(([name]) => name === "authlib.session-token")?.[1]
    expect(token?.split(".")).toHaveLength(5)
    expect((await browser.session())?.user?.email).toBe("jwt.user@example.com")
    expect(await database.count("sessions")).toBe(sessionsBefore)
    const user = await database.adapter.getUserByEmail("jwt.user@example.com")
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(events.map((e) => e.name)).toEqual(["createUser", "linkAccount", "signIn", "session"])
  })
})

describe("the confirm step", () => {
  it("any number of GETs of the link (a mail scanner) consume nothing; the POST still works", async () => {
    const { config } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    await browser.requestLink("scanned@example.com")
    const link = linkOf(inbox.received[0]!)
    const scanner = new Browser(config, APP)
    for (let i = 0; i < 3; i++) {
      const res = await scanner.request(link)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain("Confirm sign in")
    }
    expect(await database.count("verificationTokens")).toBeGreaterThan(0)
    expect(scanner.hasSessionCookie()).toBe(false)
    const { action, fields } = await browser.openLink(link)
    const done = await browser.confirm(action, fields)
    expect(done.headers.get("location")).toBe(`${APP}/`)
    expect(browser.hasSessionCookie()).toBe(true)
  })

  it("the confirm POST without the CSRF token, or from another origin, consumes nothing", async () => {
    const { config } = setup(database, inbox.url)
    const browser = new Browser(config, APP)
    await browser.requestLink("csrf@example.com")
    const { action, fields } = await browser.openLink(linkOf(inbox.received[0]!))
    const { csrfToken: _csrf, ...withoutToken } = fields
    const path = new URL(action).pathname
    expect((await browser.request(path, { form: withoutToken })).headers.get("location")).toBe(`${APP}/auth/signin?error=MissingCSRF`)
    const crossSite = await browser.request(path, { form: fields, headers: { origin: "https://evil.example" } })
    expect(crossSite.headers.get("location")).toBe(`${APP}/auth/signin?error=MissingCSRF`)
    expect(browser.hasSessionCookie()).toBe(false)
    expect((await browser.confirm(action, fields)).headers.get("location")).toBe(`${APP}/`)
    expect(browser.hasSessionCookie()).toBe(true)
  })
})
