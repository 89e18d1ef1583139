/**
 * Our emulation of Xata's SQL endpoint (`POST /db/<database>:<branch>/sql`), backed by PGlite, on
 * 127.0.0.1. It accepts what `@xata.io/client` 0.30 sends (`{ statement, params, responseType }` with
 * a bearer API key) and answers in its response shape for `responseType: "json"` (the one the adapter
 * uses): `{ records, columns }`, and `{ id, message }` with status 400 when Postgres rejects the statement.
 * The hosted service is retired; this is not it, only its request/response contract.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { PGlite } from "@electric-sql/pglite"

export interface XataEmulation {
  /** `http://<workspace>.<region>.localhost:<port>/db/<database>`: the form the client accepts for local hosts. */
  databaseURL: string
  apiKey: string
  /** Every request body received, for assertions on what the client sent. */
  requests: { url: string; body: { statement: string; params?: unknown[] } }[]
  close(): Promise<void>
}

const SQL_PATH = /^\/db\/([^/:]+):([^/]+)\/sql$/

async function readJson(req: IncomingMessage): Promise<unknown> {
  let raw = ""
  for await (const chunk of req) raw += chunk
  return JSON.parse(raw)
}

// int8 comes back from PGlite as bigint, which JSON cannot hold; Xata sends numbers.
const replacer = (_: string, value: unknown) => (typeof value === "bigint" ? Number(value) : value)

export async function startXataEmulation(db: PGlite, database = "authlib", branch = "main"): Promise<XataEmulation> {
  const apiKey = `xau_${crypto.randomUUID().replace(/-/g, "")}`
  const requests: XataEmulation["requests"] = []
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body, replacer))
    }
    const match = SQL_PATH.exec(req.url ?? "")
    if (req.method !== "POST" || !match) return send(404, { message: `no route ${req.method} ${req.url}` })
    if (match[1] !== database || match[2] !== branch) return send(404, { message: `branch ${match[1]}:${match[2]} not found` })
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { message: "invalid API key" })
    try {
      const body = (await readJson(req)) as { statement: string; params?: unknown[]; responseType?: string }
      requests.push({ url: req.url ?? "", body })
      if (body.responseType !== "json") return send(400, { message: `responseType ${body.responseType} is not emulated` })
      const result = await db.query<Record<string, unknown>>(body.statement, body.params ?? [])
      const columns = result.fields.map((f) => ({ name: f.name, type: String(f.dataTypeID) }))
      send(200, { records: result.rows, columns })
    } catch (err) {
      send(400, { id: crypto.randomUUID(), message: (err as Error).message })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    databaseURL: `http://authlib-ws.us-east-1.localhost:${port}/db/${database}`,
    apiKey,
    requests,
    close: () => new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  }
}
