/**
 * The organizations port on the PostgreSQL server of the test run, beyond the conformance suite
 * (which `pg.test.ts` runs with its races on a pool of connections): each method sends ONE
 * statement, and with thousands of rows in each table no method reads an organizations table or
 * `authlib_users` sequentially (every lookup has its index, the functions' included).
 */
import pg from "pg"
import { describe, expect, inject, test } from "vitest"
import type { AdapterOrganizationInvitation } from "@authlib/core"
import { XataAdapter, type PgClientLike } from "../src/index.js"
import { recordedSchema } from "./helpers/recorded-schema.js"

const url = inject("databaseUrl")
const TABLES = ["authlib_users", "authlib_organizations", "authlib_organization_members", "authlib_organization_invitations"]
const ROWS = 3000

describe.skipIf(url === null)("organizations on PostgreSQL", () => {
  const { statements, client, schema } = recordedSchema(url!, "organizations")

  /** Every method of the port once (and `deleteUser`), as core would call them; each call's statement count. */
  async function everyMethodOnce(on: PgClientLike = client) {
    const adapter = XataAdapter(on)
    const counts: Record<string, number> = {}
    const count = async <T>(name: string, call: () => Promise<T>): Promise<T> => {
      statements.length = 0
      const result = await call()
      counts[name] = statements.length
      return result
    }
    const user = (label: string) => adapter.createUser({ id: crypto.randomUUID(), email: `${label}-${crypto.randomUUID()}@example.com`, emailVerified: null })
    const owner = await user("owner")
    const guest = await user("guest")
    const id = crypto.randomUUID()
    const slug = `org-${id.slice(0, 8)}`
    await count("createOrganization", () => adapter.createOrganization({ id, name: "Acme", slug, ownerId: owner.id }))
    await count("getOrganization", () => adapter.getOrganization(id))
    await count("getOrganizationBySlug", () => adapter.getOrganizationBySlug(slug))
    await count("updateOrganization", () => adapter.updateOrganization(id, { name: "Acme 2", slug: `${slug}-2` }))
    const sent = (await count("createOrganizationInvitation", () =>
      adapter.createOrganizationInvitation(
        { id: crypto.randomUUID(), organizationId: id, email: guest.email!, role: "admin", inviterId: owner.id, tokenHash: crypto.randomUUID(), expires: new Date(Date.now() + 60_000) },
        { now: new Date(), membershipLimit: 10 },
      ),
    )) as AdapterOrganizationInvitation
    await count("getOrganizationInvitation", () => adapter.getOrganizationInvitation(sent.id))
    await count("getOrganizationInvitationByTokenHash", () => adapter.getOrganizationInvitationByTokenHash(sent.tokenHash))
    await count("listOrganizationInvitations", () => adapter.listOrganizationInvitations(id))
    await count("acceptOrganizationInvitation", () => adapter.acceptOrganizationInvitation({ tokenHash: sent.tokenHash, userId: guest.id, email: guest.email!, now: new Date() }))
    await count("getOrganizationMember", () => adapter.getOrganizationMember(id, guest.id))
    await count("listOrganizationMembers", () => adapter.listOrganizationMembers(id))
    await count("listOrganizationsByUserId", () => adapter.listOrganizationsByUserId(guest.id))
    await count("updateOrganizationMemberRole", () => adapter.updateOrganizationMemberRole(id, guest.id, "member", { userId: owner.id, role: "owner" }))
    await count("removeOrganizationMember", () => adapter.removeOrganizationMember(id, guest.id, { userId: owner.id, role: "owner" }))
    const later = (await adapter.createOrganizationInvitation(
      { id: crypto.randomUUID(), organizationId: id, email: "later@example.com", role: "member", inviterId: owner.id, tokenHash: crypto.randomUUID(), expires: new Date(Date.now() + 60_000) },
      { now: new Date() },
    )) as AdapterOrganizationInvitation
    await count("revokeOrganizationInvitation", () => adapter.revokeOrganizationInvitation(later.id))
    await count("deleteOrganization", () => adapter.deleteOrganization(id))
    await count("deleteUser", () => adapter.deleteUser(owner.id))
    return counts
  }

  test("each method of the port, and deleteUser with its organizations' rule, is one statement", async () => {
    const counts = await everyMethodOnce()
    expect(Object.keys(counts)).toHaveLength(17)
    expect(Object.entries(counts).filter(([, n]) => n !== 1)).toStrictEqual([])
  })

  test(`with ${ROWS} rows in each table, no method reads an organizations table or authlib_users sequentially`, async (ctx) => {
    // One connection for everything, so its table statistics can be flushed on demand before they are read.
    const one = new pg.Client({ connectionString: schema().url })
    await one.connect()
    try {
      const version = Number((await one.query(`SHOW server_version_num`)).rows[0]?.server_version_num)
      // pg_stat_force_next_flush() is PostgreSQL 15's; an older server given as DATABASE_URL cannot flush on demand.
      if (version < 150000) return ctx.skip(`PostgreSQL ${version} has no pg_stat_force_next_flush()`)
      const query = async (statement: string, params?: unknown[]) => (await one.query(statement, params)).rows as Record<string, unknown>[]
      // Users, organizations with their owners, and a pending invitation each: a store where a scan costs.
      await query(`INSERT INTO authlib_users (xata_id, email, name) SELECT 'u' || i, 'user' || i || '@example.com', 'User ' || i FROM generate_series(1, ${ROWS}) i`)
      await query(`INSERT INTO authlib_organizations (xata_id, name, slug, "createdAt") SELECT 'o' || i, 'Org ' || i, 'org-' || i, now() FROM generate_series(1, ${ROWS}) i`)
      await query(`INSERT INTO authlib_organization_members (organization, "user", role, "joinedAt") SELECT 'o' || i, 'u' || i, 'owner', now() FROM generate_series(1, ${ROWS}) i`)
      await query(
        `INSERT INTO authlib_organization_invitations (organization, email, role, inviter, "tokenHash", expires, status, "createdAt")
         SELECT 'o' || i, 'guest' || i || '@example.com', 'member', 'u' || i, 'hash' || i, now() + interval '1 day', 'pending', now() FROM generate_series(1, ${ROWS}) i`,
      )
      for (const table of TABLES) await query(`ANALYZE ${table}`)
      const scans = async () => {
        // Flushed when this connection next goes idle, which the statement after it waits for.
        await query(`SELECT pg_stat_force_next_flush()`)
        await query(`SELECT 1`)
        const rows = await query(
          `SELECT relname, seq_scan, idx_scan FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = ANY($1::text[])`,
          [TABLES],
        )
        return Object.fromEntries(rows.map((r) => [String(r.relname), { seq: Number(r.seq_scan), idx: Number(r.idx_scan ?? 0) }]))
      }
      const before = await scans()
      await everyMethodOnce(one)
      const after = await scans()
      expect(Object.keys(after).sort()).toStrictEqual([...TABLES].sort())
      for (const table of TABLES) {
        expect(after[table]!.seq - before[table]!.seq, `sequential scans of ${table}`).toBe(0)
        expect(after[table]!.idx, `index scans of ${table}`).toBeGreaterThan(before[table]!.idx)
      }
    } finally {
      await one.end()
    }
  })
})
