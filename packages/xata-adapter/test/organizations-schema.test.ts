/**
 * A database migrated by a release before organizations (up to migration 8): the port's methods
 * and `deleteUser`, which calls the organizations' function, answer `SCHEMA_MISSING` (run migrate),
 * on PGlite and through `@xata.io/client` (whose endpoint forwards only Postgres' message); after
 * `migrate` they work. The generated-style client describes the organizations' tables as migrated.
 */
import { PGlite } from "@electric-sql/pglite"
import { afterAll, describe, expect, test } from "vitest"
import { MIGRATIONS, XataAdapter, migrate } from "../src/index.js"
import { applyMigrations } from "../src/migrate.js"
import { toExecutor } from "../src/executors/index.js"
import { XataClient, tables } from "../src/xata-client.js"
import { startXataEmulation } from "./helpers/xata-emulation.js"

const pglite = new PGlite()
const emulation = await startXataEmulation(pglite)
afterAll(async () => {
  await emulation.close()
  await pglite.close()
})

describe("a database migrated before organizations", () => {
  const clients = {
    PGlite: pglite,
    "@xata.io/client": new XataClient({ databaseURL: emulation.databaseURL, apiKey: emulation.apiKey, branch: "main" }),
  }

  test("the port and deleteUser answer SCHEMA_MISSING until migrate adds migration 9", async () => {
    await applyMigrations(toExecutor(pglite), MIGRATIONS.filter((m) => m.version < 9))
    for (const [name, client] of Object.entries(clients)) {
      const adapter = XataAdapter(client)
      const user = await adapter.createUser({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null })
      const missing = { type: "XataAdapterError", code: "SCHEMA_MISSING" }
      await expect(adapter.deleteUser(user.id), name).rejects.toMatchObject(missing)
      await expect(adapter.getOrganization("o1"), name).rejects.toMatchObject(missing)
      await expect(adapter.updateOrganizationMemberRole("o1", user.id, "admin"), name).rejects.toMatchObject(missing)
      expect(await adapter.getUser(user.id), name).not.toBeNull()
    }
    // Migration 9 and the ones after it (10, enterprise SSO, builds on its tables).
    expect((await migrate(pglite)).applied).toStrictEqual(MIGRATIONS.map((m) => m.version).filter((v) => v >= 9))
    for (const [name, client] of Object.entries(clients)) {
      const adapter = XataAdapter(client)
      const user = await adapter.createUser({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null })
      expect(await adapter.updateOrganizationMemberRole("o1", user.id, "admin"), name).toBeNull()
      expect(await adapter.deleteUser(user.id), name).toMatchObject({ id: user.id })
    }
  })
})

test("the generated-style XataClient describes the organizations' tables with exactly their migrated columns", async () => {
  await migrate(pglite)
  for (const name of ["authlib_organizations", "authlib_organization_members", "authlib_organization_invitations"]) {
    const { rows } = await pglite.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND column_name NOT LIKE 'xata\\_%' ORDER BY column_name`,
      [name],
    )
    const described = tables.find((t) => t.name === name)?.columns.map((c) => c.name).sort()
    expect(described, name).toStrictEqual(rows.map((r) => r.column_name).sort())
  }
})

test("organizations' keys: an unknown owner is UNKNOWN_USER and a taken organization id or token hash DUPLICATE_KEY, writing nothing; unstorable ids read as none", async () => {
  await migrate(pglite)
  const adapter = XataAdapter(pglite)
  const owner = await adapter.createUser({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null })
  const ghost = crypto.randomUUID()
  await expect(adapter.createOrganization({ id: ghost, name: "Ghost", slug: `ghost-${ghost.slice(0, 8)}`, ownerId: crypto.randomUUID() })).rejects.toMatchObject({ code: "UNKNOWN_USER" })
  expect(await adapter.getOrganization(ghost)).toBeNull()
  const id = crypto.randomUUID()
  const org = await adapter.createOrganization({ id, name: "Acme", slug: `acme-${id.slice(0, 8)}`, ownerId: owner.id })
  await expect(adapter.createOrganization({ id, name: "Twin", slug: `twin-${id.slice(0, 8)}`, ownerId: owner.id })).rejects.toMatchObject({ code: "DUPLICATE_KEY" })
  expect(await adapter.getOrganization(id)).toStrictEqual(org)
  const invitation = (email: string, tokenHash: string) => ({ id: crypto.randomUUID(), organizationId: id, email, role: "member", inviterId: owner.id, tokenHash, expires: new Date(Date.now() + 60_000) })
  const first = invitation("first@example.com", "same-hash")
  await adapter.createOrganizationInvitation(first, { now: new Date() })
  const second = invitation("second@example.com", "same-hash")
  await expect(adapter.createOrganizationInvitation(second, { now: new Date() })).rejects.toMatchObject({ code: "DUPLICATE_KEY" })
  expect(await adapter.getOrganizationInvitation(second.id)).toBeNull()
  expect(await adapter.getOrganizationInvitationByTokenHash("same-hash")).toMatchObject({ id: first.id })
  await expect(adapter.createOrganizationInvitation(invitation("third@example.com", "h3"), { now: new Date(), membershipLimit: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" })
  expect(await adapter.getOrganization("a\u0000b")).toBeNull()
  expect(await adapter.getOrganizationMember(id, "\uD800")).toBeNull()
  expect(await adapter.acceptOrganizationInvitation({ tokenHash: "x\u0000", userId: owner.id, email: owner.email!, now: new Date() })).toBeNull()
  expect(await adapter.listOrganizationMembers("\u0000")).toStrictEqual([])
})
