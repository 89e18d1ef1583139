import { describe, expect, it } from "vitest"
import { Client, config, ORIGIN, setCookies } from "../../helpers/harness.js"

describe("GET /auth/signin", () => {
  it("renders the sign-in page with a form per provider, a CSRF token and its cookie", async () => {
    const client = new Client(config())
    const res = await client.request("/auth/signin?callbackUrl=%2Fdashboard")
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const html = await res.text()
    const token = client.jar.get("authlib.csrf-token")!.split("|")[0]!
    expect(html).toContain(token)
    expect(html).toContain(`${ORIGIN}/auth/callback/credentials`)
    expect(html).toContain(`${ORIGIN}/dashboard`)
    expect(html).toContain('name="username"')
  })

  it("shows the error of the query, escaped", async () => {
    const html = await (await new Client(config()).request("/auth/signin?error=CredentialsSignin&code=%3Cscript%3E")).text()
    expect(html).not.toContain("<script>")
  })

  it("an off-site callbackUrl is replaced by the origin", async () => {
    const html = await (await new Client(config()).request("/auth/signin?callbackUrl=https%3A%2F%2Fevil.example")).text()
    expect(html).not.toContain("evil.example")
  })

  it("GET /auth/signin/credentials renders the same page", async () => {
    expect((await new Client(config()).request("/auth/signin/credentials")).status).toBe(200)
  })

  it("pages.signIn redirects there, keeping callbackUrl, error and code", async () => {
    const res = await new Client(config({ pages: { signIn: "/login" } })).request("/auth/signin?callbackUrl=%2Fa&error=CredentialsSignin&code=x")
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/login?callbackUrl=%2Fa&error=CredentialsSignin&code=x`)
  })
})

describe("GET /auth/signout", () => {
  it("renders a confirm form posting to /auth/signout with the CSRF token", async () => {
    const client = new Client(config())
    const html = await (await client.request("/auth/signout")).text()
    expect(html).toContain(`${ORIGIN}/auth/signout`)
    expect(html).toContain(client.jar.get("authlib.csrf-token")!.split("|")[0]!)
  })

  it("pages.signOut redirects there", async () => {
    const res = await new Client(config({ pages: { signOut: "/bye" } })).request("/auth/signout")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/bye`)
  })

  it("POST /auth/signout redirects to a same-origin callbackUrl and never off-site", async () => {
    const client = new Client(config())
    expect((await client.post("/auth/signout", { callbackUrl: "https://evil.example/x" })).headers.get("location")).toBe(ORIGIN)
  })
})

describe("GET /auth/error and /auth/verify-request", () => {
  it.each([["AccessDenied", 403], ["Configuration", 500], ["Verification", 400]])("error=%s renders with status %s", async (error, status) => {
    const res = await new Client(config()).request(`/auth/error?error=${error}`)
    expect(res.status).toBe(status)
    expect(res.headers.get("content-type")).toContain("text/html")
  })

  it("an unknown error type renders the generic page without echoing it", async () => {
    const res = await new Client(config()).request("/auth/error?error=%3Cimg%20src%3Dx%3E")
    expect(await res.text()).not.toContain("<img src=x>")
  })

  it("the error page's way back is the app's own sign-in page when pages.signIn is set (one sign-in UI), else the built-in one", async () => {
    const link = async (cfg: ReturnType<typeof config>) => /<a class="button" href="([^"]+)"/.exec(await (await new Client(cfg).request("/auth/error?error=OAuthAccountNotLinked")).text())?.[1]
    expect(await link(config({ pages: { signIn: "/sign-in/" } }))).toBe(`${ORIGIN}/sign-in/`)
    expect(await link(config())).toBe(`${ORIGIN}/auth/signin`)
  })

  it("pages.error redirects there with the type", async () => {
    const res = await new Client(config({ pages: { error: "/problem" } })).request("/auth/error?error=AccessDenied")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/problem?error=AccessDenied`)
  })

  it("verify-request renders the host of the application URL", async () => {
    const res = await new Client(config({ url: "https://app.example" }), "https://app.example").request("/auth/verify-request")
    expect(res.status).toBe(200)
    expect(await res.text()).toContain("app.example")
  })

  it("verify-request links back to the app's own sign-in page when pages.signIn is set, else to the built-in one", async () => {
    const own = await (await new Client(config({ pages: { signIn: "/login" } })).request("/auth/verify-request")).text()
    expect(own).toContain(`href="${ORIGIN}/login"`)
    const builtIn = await (await new Client(config()).request("/auth/verify-request")).text()
    expect(builtIn).toContain(`href="${ORIGIN}/auth/signin"`)
  })

  it("pages.verifyRequest redirects there", async () => {
    const res = await new Client(config({ pages: { verifyRequest: "/check-mail" } })).request("/auth/verify-request?provider=email&type=email")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/check-mail?provider=email&type=email`)
  })
})

describe("open redirects through callbackUrl after sign-in", () => {
  const tricks = [
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example/",
    "\\\\evil.example",
    "/%2F%2Fevil.example",
    "%2F%2Fevil.example",
    "https://localhost:3000@evil.example/",
    "http://user:pass@localhost:3000/",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "http://localhost:3000.evil.example/",
    "http://localhost.evil.example:3000/",
    "https://localhost:3000/",
    "http://localhost:3001/",
    " //evil.example",
    "\t//evil.example",
    "/\t/evil.example",
  ]
  for (const trick of tricks) {
    it(`callbackUrl ${JSON.stringify(trick)} lands on the origin`, async () => {
      const res = await new Client(config()).signIn("alice", "wonderland", { callbackUrl: trick })
      const location = res.headers.get("location")!
      expect(new URL(location).origin).toBe(ORIGIN)
      expect(location).not.toContain("evil")
    })
  }

  it("a same-origin path is kept, resolved against the origin", async () => {
    const res = await new Client(config()).signIn("alice", "wonderland", { callbackUrl: "/a/b?c=d#e" })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/a/b?c=d#e`)
  })

  it("a custom redirect callback decides, and one returning nothing is a Configuration error", async () => {
    const custom = await new Client(config({ callbacks: { redirect: () => "https://partner.example/x" } })).signIn()
    expect(custom.headers.get("location")).toBe("https://partner.example/x")
    const broken = await new Client(config({ callbacks: { redirect: () => undefined as never } })).signIn()
    expect(broken.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(setCookies(broken).some((c) => c.name === "authlib.session-token")).toBe(false)
  })
})
