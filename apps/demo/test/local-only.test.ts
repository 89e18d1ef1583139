/**
 * The demo's embedded defaults stay on one machine: the rules of src/server/local-only.ts, and
 * the built server refusing to listen beyond loopback without WEBAUTH_URL.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "@authlib/e2e-kit/free-port"
import { describe, expect, it } from "vitest"
import { hostProblem, isLocalRequest, isLoopbackAddress, isLoopbackHost, listenPort, startupProblem } from "../src/server/local-only.js"
import { rawGet } from "./harness/http.js"
import { startDemo } from "./harness/server.js"

const headers = (values: Record<string, string>) => new Headers(values)

describe("local-only rules", () => {
  it("knows loopback names and addresses, and nothing else", () => {
    for (const host of ["localhost", "127.0.0.1", "127.8.9.10", "[::1]", "::1", "app.localhost", "LOCALHOST"]) expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "evil.example", "localhost.evil.example", "127.0.0.1.evil.example", ""]) expect(isLoopbackHost(host), host).toBe(false)
    for (const ip of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) expect(isLoopbackAddress(ip), ip).toBe(true)
    for (const ip of [undefined, "", "10.0.0.2", "::ffff:10.0.0.2", "fe80::1"]) expect(isLoopbackAddress(ip), String(ip)).toBe(false)
  })

  it("refuses to start on a non-loopback HOST without WEBAUTH_URL, or with a WEBAUTH_URL that is no URL", () => {
    expect(startupProblem({})).toBeUndefined()
    expect(startupProblem({ HOST: "localhost" })).toBeUndefined()
    expect(startupProblem({ HOST: "0.0.0.0" })).toContain("Set WEBAUTH_URL")
    expect(startupProblem({ HOST: "192.168.1.20" })).toContain("Set WEBAUTH_URL")
    expect(startupProblem({ HOST: "0.0.0.0", WEBAUTH_URL: "http://192.168.1.20:3000" })).toBeUndefined()
    expect(startupProblem({ HOST: "0.0.0.0", WEBAUTH_URL: "not a url" })).toContain("not a URL")
  })

  it("listens on PORT (3000 when unset or empty); a PORT that is no port number is a reason not to start", () => {
    expect(listenPort(undefined)).toBe(3000)
    expect(listenPort("")).toBe(3000)
    expect(listenPort("8080")).toBe(8080)
    expect(listenPort("0")).toBe(0)
    for (const bad of ["abc", "80a", "-1", "65536", "3000.5", "1e3"]) {
      expect(listenPort(bad), bad).toBeUndefined()
      expect(startupProblem({ PORT: bad }), bad).toBe(`PORT must be a port number (1 to 65535), not "${bad}"`)
    }
    expect(startupProblem({ PORT: "8080" })).toBeUndefined()
  })

  it("without WEBAUTH_URL, answers only loopback Host names and no forwarded host or protocol", () => {
    expect(hostProblem(headers({ host: "127.0.0.1:3000" }))).toBeUndefined()
    expect(hostProblem(headers({ host: "localhost:3000" }))).toBeUndefined()
    expect(hostProblem(headers({ host: "[::1]:3000" }))).toBeUndefined()
    expect(hostProblem(headers({ host: "evil.example:3000" }))).toBeDefined()
    expect(hostProblem(headers({}))).toBeDefined()
    expect(hostProblem(headers({ host: "127.0.0.1:3000", "x-forwarded-host": "evil.example" }))).toBeDefined()
    expect(hostProblem(headers({ host: "127.0.0.1:3000", "x-forwarded-proto": "https" }))).toBeDefined()
  })

  it("shows the inbox only to a loopback peer with a loopback Host and no proxy headers", () => {
    expect(isLocalRequest("127.0.0.1", headers({ host: "127.0.0.1:3000" }))).toBe(true)
    expect(isLocalRequest("::ffff:127.0.0.1", headers({ host: "localhost:3000" }))).toBe(true)
    expect(isLocalRequest("192.168.1.30", headers({ host: "127.0.0.1:3000" }))).toBe(false)
    expect(isLocalRequest("127.0.0.1", headers({ host: "demo.example:3000" }))).toBe(false)
    for (const proxy of ["x-forwarded-for", "forwarded", "x-real-ip", "x-forwarded-host"]) {
      expect(isLocalRequest("127.0.0.1", headers({ host: "127.0.0.1:3000", [proxy]: "203.0.113.9" })), proxy).toBe(false)
    }
  })
})

describe("the built server", () => {
  it("exits at once with HOST=0.0.0.0 and no WEBAUTH_URL, saying what to set", async () => {
    const started = Date.now()
    const attempt = startDemo({ HOST: "0.0.0.0", WEBAUTH_URL: "" }, 20_000)
    await expect(attempt).rejects.toThrow(/exited with 1[\s\S]*refusing to start: HOST=0\.0\.0\.0[\s\S]*WEBAUTH_URL/)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it("exits with a one-line reason, no stack, for a mistyped AUTH_SESSION_STRATEGY", async () => {
    const attempt = startDemo({ AUTH_SESSION_STRATEGY: "sql" }, 30_000)
    const err = await attempt.then(() => undefined, (e: unknown) => e as Error)
    expect(err?.message).toMatch(/exited with 1[\s\S]*refusing to start: AUTH_SESSION_STRATEGY must be "jwt" \(the default\) or "database", not "sql"/)
    expect(err?.message).not.toMatch(/\n\s+at /)
  })

  it("exits with one line, no stack, for a PORT that is no port number", async () => {
    const err = await startDemo({ PORT: "80a" }, 20_000).then(() => undefined, (e: unknown) => e as Error)
    expect(err?.message).toMatch(/exited with 1[\s\S]*refusing to start: PORT must be a port number \(1 to 65535\), not "80a"/)
    expect(err?.message).not.toMatch(/\n\s+at /)
  })

  it("exits with one line, no stack, when its port is taken", async () => {
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve))
    const port = (holder.address() as AddressInfo).port
    const dataDir = await mkdtemp(join(tmpdir(), "authlib-demo-data-"))
    try {
      const err = await startDemo({ PORT: String(port), DEMO_DATA_DIR: dataDir }, 60_000).then(() => undefined, (e: unknown) => e as Error)
      expect(err?.message).toMatch(new RegExp(`exited with 1[\\s\\S]*refusing to start: port ${port} on 127\\.0\\.0\\.1 is in use`))
      expect(err?.message).not.toMatch(/\n\s+at /)
    } finally {
      holder.close()
    }
  })

  it("with WEBAUTH_URL, takes every origin from it whatever the Host; keeps the inbox local; leaves out the Demo IdP off loopback", async () => {
    const port = await freePort()
    const dataDir = await mkdtemp(join(tmpdir(), "authlib-demo-data-"))
    const appUrl = `http://demo.test:${port}`
    const server = await startDemo({ PORT: String(port), WEBAUTH_URL: appUrl, DEMO_DATA_DIR: dataDir })
    try {
      const page = await rawGet(server.origin, "/auth/signin", { host: "evil.example" })
      expect(page.status).toBe(200)
      expect(page.body).toContain(`action="${appUrl}/auth/`)
      expect(page.body).not.toContain("evil.example")
      expect(page.body).not.toContain("Demo IdP")
      const home = await rawGet(server.origin, "/", { host: `127.0.0.1:${port}` })
      expect(home.body).not.toContain("Continue with Demo IdP")
      expect((await rawGet(server.origin, "/inbox/", { host: `127.0.0.1:${port}` })).status).toBe(200)
      expect((await rawGet(server.origin, "/inbox/", { host: `demo.test:${port}` })).status).toBe(403)
      expect((await rawGet(server.origin, "/inbox/", { host: `127.0.0.1:${port}`, "x-forwarded-for": "203.0.113.9" })).status).toBe(403)
    } finally {
      await server.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
