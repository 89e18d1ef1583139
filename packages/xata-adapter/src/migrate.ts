import { toExecutor, type AdapterClient, type Executor } from "./executors/index.js"
import { MIGRATIONS, MIGRATIONS_TABLE, type Migration } from "./schema.js"
import { toAdapterError } from "./sql/values.js"

export interface MigrateResult {
  /** Versions applied by this call, oldest first (empty when the schema was already current). */
  applied: number[]
  /** The schema version of the database after the call. */
  version: number
}

/**
 * Creates or upgrades the adapter's tables on `client` (a `XataClient`, PGlite or node-postgres
 * client). Idempotent: applied versions are recorded in `authlib_migrations` and skipped, and every
 * statement is itself re-runnable, so an interrupted run is finished by running it again.
 * Run it from one place (a deploy step or the CLI), not from every server instance at start-up.
 */
export async function migrate(client: AdapterClient): Promise<MigrateResult> {
  return applyMigrations(toExecutor(client), MIGRATIONS)
}

/** Applies the `migrations` not yet recorded in `authlib_migrations`, in order. */
export async function applyMigrations(db: Executor, migrations: readonly Migration[]): Promise<MigrateResult> {
  try {
    await db.query(MIGRATIONS_TABLE)
    const rows = await db.query("SELECT version FROM authlib_migrations")
    const done = new Set(rows.map((row) => Number(row.version)))
    const applied: number[] = []
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue
      for (const statement of migration.statements) await db.query(statement)
      await db.query(
        "INSERT INTO authlib_migrations (version, name) VALUES ($1::integer, $2::text) ON CONFLICT (version) DO NOTHING",
        [migration.version, migration.name],
      )
      applied.push(migration.version)
      done.add(migration.version)
    }
    return { applied, version: Math.max(0, ...done) }
  } catch (err) {
    throw toAdapterError(err)
  }
}
