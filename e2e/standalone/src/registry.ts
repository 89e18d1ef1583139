/**
 * A minimal npm registry in this process, for tests that publish and install with the real npm and
 * pnpm clients and no network: `PUT /<name>` (what `npm publish` / `pnpm publish` send: a packument
 * with the new version and its tarball in `_attachments`, base64), `GET /<name>` (the packument, with
 * tarball URLs on this server) and `GET /<name>/-/<file>.tgz`. Scoped names arrive as
 * `@scope%2fname` or `@scope/name`. Everything else answers 404. It binds 127.0.0.1 on a free port
 * and keeps everything in memory. Verdaccio, the usual choice, cannot be installed here (its
 * dependency tree does not resolve on this registry copy, and its newer releases need Node 22).
 */
import { createHash } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

interface Manifest {
  name: string
  version: string
  dist?: { tarball?: string; shasum?: string; integrity?: string }
  [key: string]: unknown
}

interface Packument {
  name: string
  "dist-tags": Record<string, string>
  versions: Record<string, Manifest>
  time: Record<string, string>
}

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string
  /** Adds a version from its manifest (`package.json`) and tarball, as a publish would. */
  add(manifest: Manifest, tarball: Buffer): void
  /** Names and versions held, for assertions. */
  versions(name: string): string[]
  /** Every request line served, in order. */
  readonly log: string[]
  close(): Promise<void>
}

const MAX_BODY = 256 * 1024 * 1024
const NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY) throw new Error("body too large")
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** The tarball's file name as npm names it: `name-1.0.0.tgz` (scope dropped). */
const fileOf = (name: string, version: string) => `${name.split("/").pop()}-${version}.tgz`

export async function startRegistry(): Promise<LocalRegistry> {
  const packages = new Map<string, Packument>()
  const tarballs = new Map<string, Buffer>()
  const log: string[] = []
  let base = ""

  function add(manifest: Manifest, tarball: Buffer): void {
    const { name, version } = manifest
    if (!NAME.test(name) || typeof version !== "string") throw new Error(`registry: bad manifest ${name}@${version}`)
    const doc = packages.get(name) ?? { name, "dist-tags": {}, versions: {}, time: {} }
    if (doc.versions[version]) throw Object.assign(new Error(`${name}@${version} is already published`), { status: 409 })
    const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`
    const shasum = createHash("sha1").update(tarball).digest("hex")
    const file = fileOf(name, version)
    doc.versions[version] = { ...manifest, dist: { tarball: `${base}${name}/-/${file}`, shasum, integrity } }
    doc["dist-tags"].latest = version
    doc.time[version] = new Date().toISOString()
    packages.set(name, doc)
    tarballs.set(`${name}/-/${file}`, tarball)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    log.push(`${req.method} ${req.url}`)
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]!.slice(1))
    if (req.method === "GET" && path.includes("/-/")) {
      const tarball = tarballs.get(path)
      if (!tarball) return send(res, 404, { error: "not found" })
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": tarball.length })
      return void res.end(tarball)
    }
    if (!NAME.test(path)) return send(res, 404, { error: "not found" })
    if (req.method === "GET") {
      const doc = packages.get(path)
      return doc ? send(res, 200, doc) : send(res, 404, { error: "not found" })
    }
    if (req.method === "PUT") {
      if (!/^Bearer \S+$/.test(req.headers.authorization ?? "")) return send(res, 401, { error: "authentication required" })
      const body = JSON.parse((await readBody(req)).toString("utf8")) as { versions?: Record<string, Manifest>; _attachments?: Record<string, { data: string }> }
      const [manifest] = Object.values(body.versions ?? {})
      const [attachment] = Object.values(body._attachments ?? {})
      if (!manifest || !attachment) return send(res, 400, { error: "a publish carries one version and its tarball" })
      try {
        add(manifest, Buffer.from(attachment.data, "base64"))
      } catch (err) {
        return send(res, (err as { status?: number }).status ?? 400, { error: (err as Error).message })
      }
      return send(res, 201, { ok: true })
    }
    return send(res, 405, { error: "method not allowed" })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 400, { error: (err as Error).message }))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return {
    url: base,
    add,
    versions: (name) => Object.keys(packages.get(name)?.versions ?? {}),
    log,
    close: () => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
