/**
 * Spec 5.3 and 7: errors a user may see are logged in full on the server. Expected refusals at
 * `warn`, whatever the app's own code threw at `error` (with its cause), faults at `error`.
 */
import { describe, expect, it } from "vitest"
import { Client, config, recordingLogger } from "../../helpers/harness.js"
import { AccessDenied, CredentialsSignin, MissingCSRF } from "../../../src/index.js"

describe("what reaches the logger", () => {
  it("a wrong password: logger.warn with the CredentialsSignin error", async () => {
    const { logger, entries } = recordingLogger()
    await new Client(config({ logger })).signIn("alice", "wrong")
    const entry = entries.find((e) => e.code === "CredentialsSignin")!
    expect(entry.level).toBe("warn")
    expect(entry.message[0]).toBeInstanceOf(CredentialsSignin)
    expect(entries.some((e) => e.level === "error")).toBe(false)
  })

  it("a signIn callback that throws: logger.error with AccessDenied and the app's error as cause", async () => {
    const { logger, entries } = recordingLogger()
    const boom = new Error("the ban list is unreachable")
    await new Client(config({ logger, callbacks: { signIn: () => { throw boom } } })).signIn()
    const entry = entries.find((e) => e.level === "error")!
    expect(entry.message[0]).toBeInstanceOf(AccessDenied)
    expect((entry.message[0] as AccessDenied).cause).toMatchObject({ err: boom })
  })

  it("a signIn callback that returns false: logger.warn (an expected refusal)", async () => {
    const { logger, entries } = recordingLogger()
    await new Client(config({ logger, callbacks: { signIn: () => false } })).signIn()
    expect(entries.find((e) => e.code === "AccessDenied")?.level).toBe("warn")
    expect(entries.some((e) => e.level === "error")).toBe(false)
  })

  it("a missing CSRF token: logger.warn with MissingCSRF", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger }))
    await client.request("/auth/callback/credentials", { method: "POST", form: { username: "alice", password: "wonderland" } })
    const entry = entries.find((e) => e.code === "MissingCSRF")!
    expect(entry.level).toBe("warn")
    expect(entry.message[0]).toBeInstanceOf(MissingCSRF)
  })
})
