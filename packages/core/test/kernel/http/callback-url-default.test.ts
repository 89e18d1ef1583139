/**
 * The default `redirect` callback is answered without the user-code runner, its last answer
 * remembered (issue 27): the remembered answer must never leak from one question to another (another
 * origin, another callback URL), and a configured callback still runs every time.
 */
import { describe, expect, it } from "vitest"
import { resolveConfig } from "../../../src/kernel/config/resolve.js"
import { contextOf } from "../../../src/kernel/http/context.js"
import { parseRequest } from "../../../src/kernel/http/parse-request.js"
import { resolveCallbackUrl } from "../../../src/kernel/http/callback-url.js"
import type { AuthRequest } from "../../../src/kernel/types/http.js"
import type { AuthConfig } from "../../../src/index.js"
import { config } from "../../helpers/harness.js"
import { configured, REGISTRY } from "../../../src/registry.js"

/** A GET on `origin` (no configured `url`: the origin comes from the request, `trustHost`). */
async function resolve(origin: string, callbackUrl: string | undefined, over: Partial<AuthConfig> = {}): Promise<string> {
  const cfg = resolveConfig(configured({ ...config(over), url: undefined } as AuthConfig))
  const query = callbackUrl === undefined ? "" : `?callbackUrl=${encodeURIComponent(callbackUrl)}`
  const req = (await parseRequest(new Request(`${origin}/auth/signout${query}`), "/auth", REGISTRY)) as AuthRequest
  return resolveCallbackUrl(req, contextOf(req, cfg), false)
}

describe("default redirect callback, remembered answer", () => {
  it("answers each origin with its own URL, also when the same question comes from another origin next", async () => {
    expect(await resolve("https://a.example", undefined)).toBe("https://a.example/")
    expect(await resolve("https://b.example", undefined)).toBe("https://b.example/")
    expect(await resolve("https://a.example", "/x")).toBe("https://a.example/x")
    expect(await resolve("https://b.example", "/x")).toBe("https://b.example/x")
  })

  it("refuses an off-site callback URL right after the same path was accepted on-site", async () => {
    expect(await resolve("https://a.example", "https://a.example/next")).toBe("https://a.example/next")
    expect(await resolve("https://b.example", "https://a.example/next")).toBe("https://b.example")
    expect(await resolve("https://b.example", "//a.example/next")).toBe("https://b.example")
  })

  it("runs a configured redirect callback on every request", async () => {
    let calls = 0
    const redirect = ({ baseUrl }: { url: string; baseUrl: string }) => (calls++, `${baseUrl}/custom`)
    expect(await resolve("https://a.example", undefined, { callbacks: { redirect } })).toBe("https://a.example/custom")
    expect(await resolve("https://a.example", undefined, { callbacks: { redirect } })).toBe("https://a.example/custom")
    expect(calls).toBe(2)
  })
})
