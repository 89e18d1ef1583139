/**
 * Texts chosen by `?error=` and `?code=`: a cancelled OAuth sign-in, and the two causes of
 * `EmailSignInError` (an address the normaliser refused, a send that failed on the server).
 */
import { describe, expect, it } from "vitest"
import { renderErrorPage, renderSignInPage } from "../../../src/kernel/pages/index.js"
import { Client, config, ORIGIN } from "../../helpers/harness.js"
import { emailSetup, requestLink } from "../../capabilities/email/helpers.js"
import { bodyText, skeleton, tags, theme, XSS } from "./helpers.js"

const ADDRESS_REFUSED = "The sign-in email could not be sent. Check the address and try again."
const NOT_SENT = "The sign-in email could not be sent. The problem is on this site's side; please try again later."

const errorPage = (error: string, code?: string) =>
  renderErrorPage({ error, ...(code !== undefined ? { code } : {}), signinUrl: "/auth/signin", theme })
const signInPage = (error: string, code?: string) =>
  renderSignInPage({ providers: [], csrfToken: "t", callbackUrl: "/", error, ...(code !== undefined ? { code } : {}), theme })

describe("OAuthCallbackCancelled", () => {
  it("says the sign-in was cancelled at the provider and offers to try again (400)", () => {
    const page = errorPage("OAuthCallbackCancelled")
    expect(page.status).toBe(400)
    expect(page.html).toContain("<title>Sign-in cancelled</title>")
    expect(bodyText(page.html)).toContain("The sign-in was cancelled or refused at the provider. You can try again.")
    expect(bodyText(page.html)).not.toContain("OAuthCallbackCancelled")
  })

  it("GET /auth/error?error=OAuthCallbackCancelled links to the sign-in page as \"Try again\"", async () => {
    const res = await new Client(config()).request("/auth/error?error=OAuthCallbackCancelled")
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(tags(html, "a")).toEqual([{ class: "button", href: `${ORIGIN}/auth/signin` }])
    expect(html).toMatch(/<a class="button" href="[^"]*">Try again<\/a>/)
    expect(bodyText(html)).not.toContain("Back to sign in")
  })

  it("AccessDenied keeps its text and its \"Back to sign in\" link", () => {
    const page = errorPage("AccessDenied")
    expect(page.status).toBe(403)
    expect(bodyText(page.html)).toContain("You do not have permission to sign in.")
    expect(bodyText(page.html)).toContain("Back to sign in")
  })

  it("the sign-in page shows the same sentence", () => {
    expect(bodyText(signInPage("OAuthCallbackCancelled"))).toContain("The sign-in was cancelled or refused at the provider.")
  })
})

describe("EmailSignInError texts by code", () => {
  it.each(["EMAIL_EMPTY", "EMAIL_SEVERAL_ADDRESSES", "EMAIL_LOOKALIKE_AT", "EMAIL_REFUSED"])("%s (a refused address) asks to check the address", (code) => {
    expect(bodyText(signInPage("EmailSignInError", code))).toContain(ADDRESS_REFUSED)
    const page = errorPage("EmailSignInError", code)
    expect(page.status).toBe(400)
    expect(bodyText(page.html)).toContain(ADDRESS_REFUSED)
  })

  it.each([["SEND_FAILED"], ["SMTP_REJECTED"], ["NODEMAILER_MISSING"], ["email_lowercase"], [""], [undefined]])(
    "%j (a failed send) says the problem is the site's, without blaming the address",
    (code) => {
      for (const html of [signInPage("EmailSignInError", code), errorPage("EmailSignInError", code).html]) {
        expect(bodyText(html)).toContain(NOT_SENT)
        expect(bodyText(html)).not.toMatch(/check the address/i)
        if (code) expect(html).not.toContain(code)
      }
      expect(errorPage("EmailSignInError", code).status).toBe(500)
    },
  )

  it.each([...XSS, "EMAIL_<b>x</b>", `SEND_FAILED"><img src=x>`])("never echoes the code %j", (code) => {
    for (const [html, same] of [
      [errorPage("EmailSignInError", code).html, errorPage("EmailSignInError", "SEND_FAILED").html],
      [signInPage("EmailSignInError", code), signInPage("EmailSignInError", "SEND_FAILED")],
    ] as const) {
      expect(html).not.toContain(code)
      expect(skeleton(html)).toEqual(skeleton(same))
    }
  })

  it("a code selects nothing for another error type", () => {
    expect(errorPage("AccessDenied", "EMAIL_EMPTY")).toEqual(errorPage("AccessDenied"))
  })
})

describe("EmailSignInError through Auth", () => {
  it("a refused address lands on the sign-in page, which asks to check the address", async () => {
    const { client } = emailSetup()
    const location = (await requestLink(client, "victim@example.com,attacker@evil.example")).headers.get("location")!
    const page = await client.request(location)
    expect(bodyText(await page.text())).toContain(ADDRESS_REFUSED)
  })

  it("a failed send lands on the error page, which says to try again later", async () => {
    const { client, outbox } = emailSetup()
    outbox.failWith = new Error("connect ECONNREFUSED 127.0.0.1:25")
    const location = (await requestLink(client, "jane@example.com")).headers.get("location")!
    expect(new URL(location).pathname).toBe("/auth/error")
    const page = await client.request(location)
    expect(page.status).toBe(500)
    const text = bodyText(await page.text())
    expect(text).toContain(NOT_SENT)
    expect(text).not.toMatch(/check the address/i)
  })

  it("GET /auth/error passes the code to the page: an address code and a sender code read differently", async () => {
    const client = new Client(config())
    expect(bodyText(await (await client.request("/auth/error?error=EmailSignInError&code=EMAIL_EMPTY")).text())).toContain(ADDRESS_REFUSED)
    expect(bodyText(await (await client.request("/auth/error?error=EmailSignInError&code=SMTP_REJECTED")).text())).toContain(NOT_SENT)
  })

  it("GET /auth/signin picks the text by code too", async () => {
    const client = new Client(config())
    expect(bodyText(await (await client.request("/auth/signin?error=EmailSignInError&code=EMAIL_EMPTY")).text())).toContain(ADDRESS_REFUSED)
    expect(bodyText(await (await client.request("/auth/signin?error=EmailSignInError&code=SEND_FAILED")).text())).toContain(NOT_SENT)
  })

  it("pages.error receives the code with the type", async () => {
    const res = await new Client(config({ pages: { error: "/problem" } })).request("/auth/error?error=EmailSignInError&code=SEND_FAILED")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/problem?error=EmailSignInError&code=SEND_FAILED`)
  })
})
