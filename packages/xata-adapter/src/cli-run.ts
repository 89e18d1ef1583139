/**
 * `authlib-xata migrate --database-url <url>`, `authlib-xata migrate-from-authjs --from <source>
 * --database-url <url> [--dry-run]` and `authlib-xata schema`. The driver is chosen by the
 * URL and imported only then, so the CLI needs just the one the user has installed:
 * `postgres://`/`postgresql://` -> pg; `http(s)://` (a Xata database URL) -> @xata.io/client;
 * `file:<dir>` -> PGlite persisted in that folder.
 */
import { mkdir } from "node:fs/promises"
import { parseArgs } from "node:util"
import type { AdapterClient } from "./executors/index.js"
import { migrate } from "./migrate.js"
import { migrateFromAuthJs, type AuthJsSource } from "./migrate-from-authjs.js"
import { schemaSql } from "./schema.js"

export interface CliIo {
  out: (line: string) => void
  err: (line: string) => void
  env: Record<string, string | undefined>
}

const USAGE = `Usage:
  authlib-xata migrate --database-url <url> [--api-key <key>] [--branch <branch>]
  authlib-xata migrate-from-authjs --from pg-adapter|xata-adapter --database-url <url> [--dry-run]
                                         copy an Auth.js (or NextAuth.js v4) app's users, accounts,
                                         sessions (tokens hashed) and links into the authlib tables
  authlib-xata schema                    print the schema as SQL

<url>: postgres://... (needs pg), https://<workspace>.<region>.xata.sh/db/<db> (needs @xata.io/client;
       key from --api-key or XATA_API_KEY, branch from --branch, XATA_BRANCH or "main"), or file:<dir> (needs
       @electric-sql/pglite). Defaults to DATABASE_URL.`

type Options = { url: string; apiKey?: string | undefined; branch?: string | undefined }

/** Opens the database `options.url` names with the driver its scheme needs, runs `run`, closes it. */
async function withClient<T>(options: Options, run: (client: AdapterClient) => Promise<T>): Promise<T> {
  const { url } = options
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { default: pg } = await import("pg")
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      return await run(client)
    } finally {
      await client.end()
    }
  }
  if (url.startsWith("file:")) {
    const dir = url.slice("file:".length)
    const { PGlite } = await import("@electric-sql/pglite")
    // PGlite creates only the last folder of the path (`./.data/auth` failed with ENOENT).
    await mkdir(dir, { recursive: true })
    const db = new PGlite(dir)
    try {
      return await run(db)
    } finally {
      await db.close()
    }
  }
  if (/^https?:\/\//.test(url)) {
    const { XataClient } = await import("./xata-client.js")
    return run(new XataClient({ databaseURL: url, apiKey: options.apiKey, branch: options.branch ?? "main" }))
  }
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
      from: { type: "string" },
      "dry-run": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  })
}

type Values = ReturnType<typeof parse>["values"]

/** The database options of a command, or undefined (usage printed) without a URL. */
function databaseOptions(command: string, values: Values, io: CliIo): Options | undefined {
  const url = values["database-url"] ?? io.env.DATABASE_URL
  if (!url) {
    io.err(`${command} needs --database-url (or DATABASE_URL)\n\n${USAGE}`)
    return undefined
  }
  return { url, apiKey: values["api-key"] ?? io.env.XATA_API_KEY, branch: values.branch ?? io.env.XATA_BRANCH }
}

async function migrateCommand(values: Values, io: CliIo): Promise<number> {
  const options = databaseOptions("migrate", values, io)
  if (!options) return 2
  try {
    const { applied, version } = await withClient(options, migrate)
    io.out(applied.length > 0 ? `applied migrations ${applied.join(", ")}; schema version ${version}` : `schema is up to date (version ${version})`)
    return 0
  } catch (err) {
    io.err(`migrate failed: ${(err as Error).message}`)
    return 1
  }
}

const SOURCES: readonly AuthJsSource[] = ["pg-adapter", "xata-adapter"]

async function migrateFromAuthJsCommand(values: Values, io: CliIo): Promise<number> {
  const from = values.from as AuthJsSource | undefined
  if (!from || !SOURCES.includes(from)) {
    io.err(`migrate-from-authjs needs --from pg-adapter or --from xata-adapter\n\n${USAGE}`)
    return 2
  }
  const options = databaseOptions("migrate-from-authjs", values, io)
  if (!options) return 2
  const dryRun = values["dry-run"] === true
  try {
    const counts = await withClient(options, (client) => migrateFromAuthJs(client, { from, dryRun }))
    const list = `${counts.users} users, ${counts.accounts} accounts, ${counts.sessions} sessions, ${counts.verificationTokens} verification tokens`
    io.out(dryRun ? `dry run: would copy ${list} from ${from}; nothing was written` : `copied ${list} from ${from}`)
    return 0
  } catch (err) {
    io.err(`migrate-from-authjs failed: ${(err as Error).message}`)
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
  if (command === "migrate-from-authjs" && rest.length === 0) return migrateFromAuthJsCommand(parsed.values, io)
  io.err(USAGE)
  return 2
}
