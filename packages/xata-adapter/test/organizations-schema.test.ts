/**
 * A database migrated by a release before organizations (up to migration 8): the port's methods
 * and `deleteUser`, which calls the organizations' function, answer `SCHEMA_MISSING` (run migrate),
 * on PGlite and through `@xata.io/client` (whose endpoint forwards only Postgres' message); after
 * `migrate` they work.
 */
import { PGlite } from "@electric-sql/pglite"
import { afterAll, describe, expect, test } from "vitest"
import { MIGRATIONS, XataAdapter, migrate } from "../src/index.js"
import { applyMigrations } from "../src/migrate.js"
import { toExecutor } from "../src/executors/index.js"
import { XataClient } from "../src/xata-client.js"
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
