import { inject, test } from "vitest"
import { runBasicTests } from "@authlib/adapter-test"
import { XataAdapter, migrate } from "../src/index.js"
import { directDb } from "./helpers/direct-db.js"
import { pgSchema } from "@authlib/e2e-kit/pg-schema"

const url = inject("databaseUrl")

if (url === null) {
  test.skip("PostgreSQL server: no DATABASE_URL and no PostgreSQL binaries (see the warning above)", () => {})
} else {
  // A node-postgres Pool: parallel calls really run on separate connections here.
  const schema = pgSchema(url, "pg")
  runBasicTests({
    adapter: XataAdapter(schema.pool),
    db: directDb(schema.query, {
      connect: async () => {
        await schema.create()
        await migrate(schema.pool)
      },
      disconnect: () => schema.drop(),
    }),
    testWebAuthnMethods: true,
    concurrency: 24,
  })
}
