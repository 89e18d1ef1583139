/**
 * Clickjacking and policy tampering on the built-in pages: no page may be framed by another
 * site, and nothing in the request (a forwarded host, a query value) can add to or weaken the
 * Content-Security-Policy that says so.
 */
import { describe, expect, it } from "vitest"
import { Client, config } from "../helpers/harness.js"
import { emailSetup, requestLink } from "../capabilities/email/helpers.js"

const PATHS = ["/auth/signin", "/auth/signout", "/auth/error?error=AccessDenied", "/auth/verify-request"]
const DIRECTIVES = ["default-src", "style-src", "img-src", "form-action", "base-uri", "frame-ancestors"]

function directiveNames(res: Response): string[] {
  return res.headers.get("content-security-policy")!.split(";").map((d) => d.trim().split(/\s+/)[0]!)
}

describe("framing the built-in pages", () => {
  it.each(PATHS)("%s refuses every frame", async (path) => {
    const res = await new Client(config()).request(path)
    expect(res.headers.get("x-frame-options")).toBe("DENY")
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
  })

  it("the e-mail confirm page, whose button completes a sign-in, refuses every frame", async () => {
    const { client, outbox } = emailSetup()
    await requestLink(client, "jane@example.com")
    const url = new URL(outbox.sent[0]!.url)
    const res = await client.request(url.pathname + url.search, { noJar: true })
    expect(res.headers.get("x-frame-options")).toBe("DENY")
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
  })
})

describe("the policy is not the request's to write", () => {
  // The URL parser keeps `;` and `,` in a host, and without `url` the page's action URLs are built
  // on the forwarded host: a policy built from it naively would gain the attacker's directives.
  it.each([
    "evil.example;script-src 'unsafe-inline'",
    "evil.example,frame-ancestors *",
    "evil.example; frame-ancestors https://evil.example",
  ])("X-Forwarded-Host %j adds no directive", async (host) => {
    for (const path of PATHS) {
      const res = await new Client(config()).request(path, { headers: { "x-forwarded-host": host } })
      if (!res.headers.has("content-security-policy")) continue // refused as a bad host: nothing to weaken
      const csp = res.headers.get("content-security-policy")!
      expect(directiveNames(res).every((name) => DIRECTIVES.includes(name))).toBe(true)
      expect(csp).not.toMatch(/unsafe-inline|\*/)
      expect(csp.match(/frame-ancestors/g)).toEqual(["frame-ancestors"])
      // The page's inline icon is the only image: nothing of the host reaches img-src.
      expect(csp).toContain("img-src data:;")
      expect(csp).toContain("frame-ancestors 'none'")
    }
  })

  it("query values never reach the headers", async () => {
    const q = new URLSearchParams({ error: "EmailSignInError", code: "x;frame-ancestors *", callbackUrl: "/;img-src *" })
    for (const path of ["/auth/signin", "/auth/error", "/auth/signout"]) {
      const res = await new Client(config()).request(`${path}?${q}`)
      for (const [, value] of res.headers) expect(value).not.toMatch(/frame-ancestors \*|img-src \*/)
    }
  })
})
