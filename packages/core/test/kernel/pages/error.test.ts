import { describe, expect, it } from "vitest"
import { renderErrorPage } from "../../../src/kernel/pages/index.js"
import { bodyText, documentProblems, skeleton, tags, theme, XSS } from "./helpers.js"

const render = (error: string, signinUrl = "/auth/signin") => renderErrorPage({ error, signinUrl, theme })

describe("renderErrorPage", () => {
  const statuses: Array<[string, number, string]> = [
    ["Configuration", 500, "There is a problem with the server configuration."],
    ["AccessDenied", 403, "You do not have permission to sign in."],
    ["MissingCSRF", 403, "The form could not be verified"],
    ["Verification", 400, "It may have expired or been used already."],
    ["OAuthAccountNotLinked", 400, "already linked to another sign-in method"],
    ["CredentialsSignin", 400, "Sign in failed."],
    ["OAuthCallbackError", 400, "could not be processed"],
  ]
  it.each(statuses)("answers %s with %i and its message", (error, status, message) => {
    const page = render(error)
    expect(page.status).toBe(status)
    expect(bodyText(page.html)).toContain(message)
    expect(documentProblems(page.html)).toEqual([])
  })

  it.each(["Default", "Unknown", "constructor", "__proto__", "hasOwnProperty", "", ...XSS])(
    "treats %j as the default error (400) without echoing it",
    (error) => {
      const page = render(error)
      expect(page.status).toBe(400)
      expect(bodyText(page.html)).toContain("Something went wrong while signing in.")
      if (error) expect(page.html).not.toContain(error)
      expect(skeleton(page.html)).toEqual(skeleton(render("Default").html))
    },
  )

  it("tolerates a missing error type from a JavaScript caller", () => {
    expect(renderErrorPage({ signinUrl: "/auth/signin", theme } as never).status).toBe(400)
  })

  it("links back to the sign-in page, escaped", () => {
    const url = '/auth/signin?a=1&b="2"'
    const page = render("AccessDenied", url)
    expect(tags(page.html, "a")).toEqual([{ class: "button", href: url }])
    expect(page.html).toContain('href="/auth/signin?a=1&amp;b=&quot;2&quot;"')
  })

  it.each(["javascript:alert(1)", "java\nscript:alert(1)", "data:text/html,x"])("makes a %j sign-in link inert", (url) => {
    expect(tags(render("Verification", url).html, "a")[0]!.href).toBe("about:blank")
  })

  it("titles the page after the error", () => {
    expect(render("AccessDenied").html).toContain("<title>Access denied</title>")
  })
})
