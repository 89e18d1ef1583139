/**
 * The Nodemailer provider plugged into core's `Auth` and the in-memory adapter: the mail a real
 * SMTP server receives carries a link that signs the user in; refusals send nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@authlib/adapter-test"
import { EmailSignInError } from "@authlib/core"
import Nodemailer from "@authlib/providers/nodemailer"
import { Client, ORIGIN, SECRET, startSmtp } from "./helpers.js"

let smtp: Awaited<ReturnType<typeof startSmtp>>
let store: MemoryStore

beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(() => smtp.close())
beforeEach(() => {
  smtp.received.length = 0
  smtp.state.rejectData = false
  store = createMemoryStore()
})

let logged: Array<{ code: string; message: unknown[] }> = []
const logger = { error: (code: string, ...message: unknown[]) => void logged.push({ code, message }), warn() {}, debug() {} }

function client() {
  logged = []
  return new Client({ secret: SECRET, trustHost: true, url: ORIGIN, logger, adapter: MemoryAdapter(store), providers: [Nodemailer({ server: smtp.url })] })
}

/** The sign-in link of the last mail, read from its text version. */
function lastLink(): URL {
  const text = smtp.received.at(-1)!.mail.text ?? ""
  return new URL(text.match(/^https?:\/\/\S+$/m)![0])
}

describe("Nodemailer provider through core's Auth", () => {
  it("normalises the address, mails a link on the configured origin, and the link signs the user in", async () => {
    const browser = client()
    const start = await browser.post("/auth/signin/nodemailer", { email: "  Mona@Example.COM ", callbackUrl: "/inbox" })
    expect(start.status).toBe(302)
    expect(start.headers.get("location")).toContain("/auth/verify-request")
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]!.to).toEqual(["mona@example.com"])
    expect(smtp.received[0]!.mail.subject).toBe("Sign in to localhost:3000")
    const link = lastLink()
    expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/nodemailer`)
    expect(link.searchParams.get("email")).toBe("mona@example.com")
    expect(String(smtp.received[0]!.mail.html)).toContain(link.href.replace(/&/g, "&amp;"))

    const confirm = await browser.request(link.pathname + link.search)
    expect(confirm.status).toBe(200)
    const done = await browser.post("/auth/callback/nodemailer", Object.fromEntries(link.searchParams))
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/inbox`)
    const session = (await (await browser.request("/auth/session")).json()) as { user: { email: string } }
    expect(session.user.email).toBe("mona@example.com")
  })

  it("refuses a look-alike @ before anything is stored or sent", async () => {
    const res = await client().post("/auth/signin/nodemailer", { email: "victim\uff20example.com" })
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("code")).toBe("EMAIL_LOOKALIKE_AT")
    expect(smtp.received).toHaveLength(0)
    expect(store.verificationTokens.size).toBe(0)
  })

  it("ends on the error page and leaves no usable token when the SMTP server refuses the recipient", async () => {
    const res = await client().post("/auth/signin/nodemailer", { email: "nobody@example.com" })
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get("location")!)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("EmailSignInError")
    // The server log has the provider's typed error with the SMTP reply: core's own class, thrown by
    // the built provider package (imported by its name), so instanceof holds across the packages.
    const sent = logged.map((l) => l.message[0]).find((e) => (e as { code?: string })?.code === "SMTP_REJECTED")
    expect(sent).toBeInstanceOf(EmailSignInError)
    expect((sent as EmailSignInError).cause?.response).toContain("550 No such user here")
    expect(smtp.received).toHaveLength(0)
    expect(store.verificationTokens.size).toBe(0)
  })
})
