/**
 * `authlib-xata migrate --database-url <url>` and `authlib-xata schema`. The driver is chosen by the
 * URL and imported only then, so the CLI needs just the one the user has installed:
 * `postgres://`/`postgresql://` -> pg; `http(s)://` (a Xata database URL) -> @xata.io/client;
 * `file:<dir>` -> PGlite persisted in that folder.
 */
import { mkdir } from "node:fs/promises"
import { parseArgs } from "node:util"
import { migrate, type MigrateResult } from "./migrate.js"
import { schemaSql } from "./schema.js"

export interface CliIo {
  out: (line: string) => void
  err: (line: string) => void
  env: Record<string, string | undefined>
}

const USAGE = `Usage:
  authlib-xata migrate --database-url <url> [--api-key <key>] [--branch <branch>]
  authlib-xata schema                    print the schema as SQL

<url>: postgres://... (needs pg), https://<workspace>.<region>.xata.sh/db/<db> (needs @xata.io/client;
       key from --api-key or XATA_API_KEY, branch from --branch, XATA_BRANCH or "main"), or file:<dir> (needs
       @electric-sql/pglite). Defaults to DATABASE_URL.`

type Options = { url: string; apiKey?: string | undefined; branch?: string | undefined }

async function migratePostgres(url: string): Promise<MigrateResult> {
  const { default: pg } = await import("pg")
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await migrate(client)
  } finally {
    await client.end()
  }
}

async function migratePGlite(dir: string): Promise<MigrateResult> {
  const { PGlite } = await import("@electric-sql/pglite")
  // PGlite creates only the last folder of the path (`./.data/auth` failed with ENOENT).
  await mkdir(dir, { recursive: true })
  const db = new PGlite(dir)
  try {
    return await migrate(db)
  } finally {
    await db.close()
  }
}

async function migrateXata({ url, apiKey, branch }: Options): Promise<MigrateResult> {
  const { XataClient } = await import("./xata-client.js")
  return migrate(new XataClient({ databaseURL: url, apiKey, branch: branch ?? "main" }))
}

function runMigration(options: Options): Promise<MigrateResult> {
  const { url } = options
  if (/^postgres(ql)?:\/\//.test(url)) return migratePostgres(url)
  if (url.startsWith("file:")) return migratePGlite(url.slice("file:".length))
  if (/^https?:\/\//.test(url)) return migrateXata(options)
  throw new Error(`unsupported --database-url scheme: ${url.split(":")[0]}: (expected postgres://, https:// or file:)`)
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "database-url": { type: "string" },
      "api-key": { type: "string" },
      branch: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  })
}

async function migrateCommand(values: ReturnType<typeof parse>["values"], io: CliIo): Promise<number> {
  const url = values["database-url"] ?? io.env.DATABASE_URL
  if (!url) {
    io.err(`migrate needs --database-url (or DATABASE_URL)\n\n${USAGE}`)
    return 2
  }
  const apiKey = values["api-key"] ?? io.env.XATA_API_KEY
  const branch = values.branch ?? io.env.XATA_BRANCH
  try {
    const { applied, version } = await runMigration({ url, apiKey, branch })
    io.out(applied.length > 0 ? `applied migrations ${applied.join(", ")}; schema version ${version}` : `schema is up to date (version ${version})`)
    return 0
  } catch (err) {
    io.err(`migrate failed: ${(err as Error).message}`)
    return 1
  }
}

/** Runs the CLI; resolves to the process exit code (0 done, 1 failed, 2 usage error). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (err) {
    io.err(`${(err as Error).message}\n\n${USAGE}`)
    return 2
  }
  const [command, ...rest] = parsed.positionals
  if (parsed.values.help) {
    io.out(USAGE)
    return 0
  }
  if (command === "schema" && rest.length === 0) {
    io.out(schemaSql())
    return 0
  }
  if (command === "migrate" && rest.length === 0) return migrateCommand(parsed.values, io)
  io.err(USAGE)
  return 2
}
