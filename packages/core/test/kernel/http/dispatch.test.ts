import { describe, expect, it } from "vitest"
import { Auth, raw } from "../../../src/index.js"
import type { AuthConfig } from "../../../src/index.js"
import { Client, config, credentials, recordingLogger } from "../../helpers/harness.js"

describe("origin of links", () => {
  it("without url, X-Forwarded-Host and -Proto (trusted: trustHost) give the origin", async () => {
    const res = await new Client(config()).request("/auth/providers", { headers: { "x-forwarded-host": "app.example, proxy.internal", "x-forwarded-proto": "https" } })
    expect(await res.json()).toMatchObject({ credentials: { signinUrl: "https://app.example/auth/signin/credentials" } })
  })

  it("a garbage X-Forwarded-Host falls back to the request URL", async () => {
    const res = await new Client(config()).request("/auth/providers", { headers: { "x-forwarded-host": "bad host/\\" } })
    expect(await res.json()).toMatchObject({ credentials: { signinUrl: "http://localhost:3000/auth/signin/credentials" } })
  })

  it("Origin equal to the forwarded application origin passes the CSRF check", async () => {
    const client = new Client(config())
    const headers = { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }
    const token = ((await (await client.request("/auth/csrf", { headers })).json()) as { csrfToken: string }).csrfToken
    const res = await client.request("/auth/callback/credentials", { headers: { ...headers, origin: "https://app.example" }, form: { csrfToken: token, username: "alice", password: "wonderland" } })
    expect(res.headers.get("location")).toBe("https://app.example/")
  })
})

describe("paths", () => {
  it("tolerates one trailing slash, not two", async () => {
    const client = new Client(config())
    expect((await client.request("/auth/providers/")).status).toBe(200)
    expect((await client.request("/auth/providers//")).status).toBe(404)
  })

  it("decodes a percent-encoded provider id", async () => {
    const client = new Client(config({ providers: [credentials({ id: "my creds" })] }))
    expect(await (await client.request("/auth/providers")).json()).toMatchObject({ "my creds": { callbackUrl: "http://localhost:3000/auth/callback/my%20creds" } })
    const csrfToken = await client.csrfToken()
    const ok = await client.request("/auth/callback/my%20creds", { form: { csrfToken, username: "alice", password: "wonderland" } })
    expect(ok.headers.get("location")).toBe("http://localhost:3000/")
  })

  it("serves at the root with basePath \"\"", async () => {
    expect((await new Client(config({ basePath: "" })).request("/providers")).status).toBe(200)
  })
})

describe("raw mode errors", () => {
  it("a fatal misconfiguration is thrown to the caller", async () => {
    await expect(Auth(new Request("http://localhost:3000/auth/session"), { ...config({ secret: undefined }), raw })).rejects.toMatchObject({ type: "MissingSecret" })
  })

  it("a callback that throws is logged and reaches the caller as CallbackError", async () => {
    const { logger, entries } = recordingLogger()
    const cfg: AuthConfig & { raw: typeof raw } = { ...config({ logger, callbacks: { redirect: () => { throw new Error("bug") } } }), raw }
    const client = new Client(config())
    const csrfToken = await client.csrfToken()
    const cookie = [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ")
    const request = new Request("http://localhost:3000/auth/callback/credentials", { method: "POST", headers: { cookie, origin: "http://localhost:3000", "content-type": "application/x-www-form-urlencoded" }, body: `csrfToken=${csrfToken}&username=alice&password=wonderland` })
    const err = await Auth(request, cfg).catch((e: unknown) => e)
    expect(err).toMatchObject({ type: "CallbackError" })
    expect(entries.some((e) => e.level === "error" && e.code === "CallbackError")).toBe(true)
  })

  it("malformed requests still resolve a 4xx result", async () => {
    const result = await Auth(new Request("http://localhost:3000/auth/nope"), { ...config({ providers: [credentials()] }), raw })
    expect(result.status).toBe(404)
  })
})
