/**
 * The `organizations` option: what start-up refuses (every request answers `Configuration` and the
 * log says why), the defaults, and the role table it resolves (owner cannot be redefined; the app's
 * roles added or redefining admin and member).
 */
import { describe, expect, it } from "vitest"
import { createOrganization, DEFAULT_RATE_LIMITS, hasPermission, inviteMember, type AuthConfig } from "../../../src/index.js"
import { Client, recordingLogger } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { appRequest, join, kit } from "./helpers.js"

async function refusal(over: Partial<AuthConfig>, organizations: unknown): Promise<string> {
  const k = kit("jwt")
  const { logger, entries } = recordingLogger()
  const config = { ...k.config, logger, ...over, organizations } as AuthConfig
  const res = await new Client(config).request("/auth/providers")
  expect(res.status).toBe(500)
  expect(await res.json()).toEqual({ error: "Configuration" })
  return entries.filter((e) => e.level === "error").map((e) => e.message.map(String).join(" ")).join("\n")
}

describe("the organizations option", () => {
  const send = () => {}

  it("refuses a configuration without url, without the port, or with malformed values", async () => {
    expect(await refusal({ url: undefined }, { sendInvitation: send })).toContain('needs "url"')
    expect(await refusal({ adapter: memoryAdapter() }, { sendInvitation: send })).toContain("createOrganization")
    expect(await refusal({}, {})).toContain("sendInvitation")
    expect(await refusal({}, { sendInvitation: send, invitationMaxAge: 0 })).toContain("invitationMaxAge")
    expect(await refusal({}, { sendInvitation: send, membershipLimit: 1.5 })).toContain("membershipLimit")
    expect(await refusal({}, { sendInvitation: send, freshAge: -1 })).toContain("freshAge")
    expect(await refusal({}, { sendInvitation: send, allowUserToCreate: "yes" })).toContain("allowUserToCreate")
    expect(await refusal({}, { sendInvitation: send, roles: { owner: [] } })).toContain("roles.owner")
    expect(await refusal({}, { sendInvitation: send, roles: { "Bad Name": [] } })).toContain("role name")
    expect(await refusal({}, { sendInvitation: send, roles: { billing: "invoice:approve" } })).toContain("roles.billing")
    expect(await refusal({}, { sendInvitation: send, roles: { billing: ["has space"] } })).toContain("roles.billing")
  })

  it("declares its rate-limit groups with the README's defaults", () => {
    expect(DEFAULT_RATE_LIMITS["organizations.create"]).toEqual([{ limit: 10, window: 3600 }])
    expect(DEFAULT_RATE_LIMITS["organizations.invite"]).toEqual([{ limit: 20, window: 600 }, { limit: 100, window: 86400 }])
  })

  it("lets the app redefine admin and member and add roles; owner keeps every permission", async () => {
    const k = kit("database", { roles: { admin: ["member:invite"], member: ["project:read"], viewer: [] } })
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme" })
    const bob = await join(k, alice, org.id, "bob", "admin")
    expect(await hasPermission(appRequest(bob), k.config, org.id, "member:remove")).toBe(false)
    expect(await hasPermission(appRequest(bob), k.config, org.id, "member:invite")).toBe(true)
    // The redefined admin grants only what it holds: viewer (nothing) yes, member (project:read) no.
    await inviteMember(appRequest(bob), k.config, org.id, { email: "carol@example.com", role: "viewer" })
    await expect(inviteMember(appRequest(bob), k.config, org.id, { email: "dave@example.com", role: "member" })).rejects.toMatchObject({ code: "ROLE_ESCALATION" })
    expect(await hasPermission(appRequest(alice), k.config, org.id, "project:read")).toBe(true)
  })
})
