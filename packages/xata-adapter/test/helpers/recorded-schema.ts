/**
 * A migrated schema of its own for the calling `describe` block (made before its tests, dropped
 * after them) and a client that records every statement it sends: what the statement-count tests
 * count.
 */
import { afterAll, beforeAll } from "vitest"
import { migrate, type PgClientLike } from "../../src/index.js"
import { pgSchema, type PgSchema } from "@authlib/e2e-kit/pg-schema"

export function recordedSchema(url: string, label: string) {
  const statements: string[] = []
  let made: PgSchema | undefined
  beforeAll(async () => {
    made = pgSchema(url, label)
    await made.create()
    await migrate(made.pool)
  })
  afterAll(() => made?.drop())
  const schema = (): PgSchema => {
    if (!made) throw new Error("the schema is made in beforeAll: use it inside a test")
    return made
  }
  const client: PgClientLike = { query: (s, p) => (statements.push(s), schema().pool.query(s, p)), connect: () => schema().pool.connect() }
  return { statements, client, schema }
}
