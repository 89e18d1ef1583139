import { PGlite } from "@electric-sql/pglite"
import { runBasicTests } from "@authlib/adapter-test"
import { XataAdapter, migrate } from "../src/index.js"
import { directDb } from "./helpers/direct-db.js"

// One PGlite per file: starting one takes seconds.
const pglite = new PGlite()

runBasicTests({
  adapter: XataAdapter(pglite),
  db: directDb(async (sql, params) => (await pglite.query<Record<string, unknown>>(sql, params)).rows, {
    connect: async () => {
      await migrate(pglite)
    },
    disconnect: () => pglite.close(),
  }),
  testWebAuthnMethods: true,
})
