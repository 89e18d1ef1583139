/**
 * One rule logs what a request ends with, for routes and server functions alike: an expected
 * refusal (a client-safe error: a wrong password, a wrong code, no session) is one `warn` line
 * without a stack trace, logged once however many layers saw it; a fault is an `error` with its
 * stack. Checked on what the built-in console logger prints.
 */
import { format } from "node:util"
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest"
import { disableTwoFactorSignIn, listLinkedAccounts, stepUpTwoFactor, type AuthConfig } from "../../../src/index.js"
import { Client, config as baseConfig, credentials, ORIGIN } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { appRequest, enrolTotp, wrongCodeFor } from "../../helpers/two-factor.js"

/** A stack frame as Node prints one. */
const STACK_FRAME = /\n\s+at /

let warn: MockInstance<typeof console.warn>
let error: MockInstance<typeof console.error>
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => {})
  error = vi.spyOn(console, "error").mockImplementation(() => {})
})
afterEach(() => void vi.restoreAllMocks())

/** The lines printed at `spy`'s level that name `type`, as the console would print them. */
const printed = (spy: MockInstance<(...args: unknown[]) => void>, type: string) => spy.mock.calls.map((args) => format(...args)).filter((line) => line.includes(type))

/** The built-in console logger (no `logger` in the config). */
const withConsole = (over: Partial<AuthConfig> = {}): AuthConfig => ({ ...baseConfig(over), logger: undefined })

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("resolved"),
    (err: unknown) => err,
  )
}

describe("logging a refusal", () => {
  it("a wrong password at the route: one warn line, type, message and code, no stack; no error", async () => {
    const client = new Client(withConsole())
    await client.signIn("alice", "wrong")
    const lines = printed(warn, "CredentialsSignin")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[authlib\]\[warn\]\[CredentialsSignin\] CredentialsSignin: .*\(invalid_password\)$/)
    expect(lines[0]).not.toMatch(STACK_FRAME)
    expect(error).not.toHaveBeenCalled()
  })

  it("a server function's refusal (no session): one warn line without a stack", async () => {
    const cfg = withConsole({ adapter: Object.assign(memoryAdapter(), { listAccountsByUserId: async () => [] }), session: { strategy: "database" } })
    expect(await refusal(listLinkedAccounts(new Request(`${ORIGIN}/account`), cfg))).toMatchObject({ type: "SessionRequired" })
    const lines = printed(warn, "SessionRequired")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[authlib\]\[warn\]\[SessionRequired\] SessionRequired: .*\(SESSION_MISSING\)$/)
    expect(error).not.toHaveBeenCalled()
  })

  it("a wrong code to two-factor server functions: one warn line each, whichever function it went through", async () => {
    const adapter = twoFactorAdapter()
    adapter.users.set("user-1", { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: new Date() })
    const cfg = withConsole({ adapter, session: { strategy: "database" }, twoFactor: { issuer: "Example" } })
    const client = new Client(cfg)
    const secret = await enrolTotp(client)
    expect(await refusal(disableTwoFactorSignIn(appRequest(client), cfg, { code: wrongCodeFor(secret) }))).toMatchObject({ code: "CODE_INVALID" })
    expect(await refusal(stepUpTwoFactor(appRequest(client), cfg, { code: wrongCodeFor(secret) }))).toMatchObject({ code: "CODE_INVALID" })
    const lines = printed(warn, "CODE_INVALID")
    expect(lines).toHaveLength(2)
    for (const line of lines) expect(line).not.toMatch(STACK_FRAME)
    expect(error).not.toHaveBeenCalled()
  })
})

describe("logging a fault", () => {
  it("an adapter that throws under a server function: an error with its stack, the caller gets the adapter's error", async () => {
    const adapter = Object.assign(memoryAdapter(), {
      listAccountsByUserId: async () => {
        throw new Error("the accounts table is gone")
      },
    })
    const cfg = withConsole({ adapter, providers: [credentials()], session: { strategy: "database" } })
    const client = new Client(cfg)
    expect((await client.signIn()).status).toBe(302)
    const request = new Request(`${ORIGIN}/account`, { headers: { cookie: `authlib.session-token=${client.jar.get("authlib.session-token")}` } })
    expect(await refusal(listLinkedAccounts(request, cfg))).toMatchObject({ type: "AdapterError" })
    const lines = printed(error, "the accounts table is gone")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[authlib\]\[error\]/)
    expect(lines[0]).toMatch(STACK_FRAME)
    expect(printed(warn, "accounts table")).toEqual([])
  })
})
