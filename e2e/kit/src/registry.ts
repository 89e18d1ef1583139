/**
 * A small npm registry for tests: enough of the registry API for `npm publish`, `pnpm publish`
 * (and so `changeset publish`), `npm view` and `npm install` to work against it, with no network.
 *
 * - `GET /<name>` (scoped names as `/@scope%2fname` or `/@scope/name`): the packument, with every
 *   version's `dist.tarball` pointing back here and `dist.integrity`/`dist.shasum` computed from the
 *   stored tarball.
 * - `GET /<name>/-/<name>-<version>.tgz`: the tarball.
 * - `PUT /<name>` with `Authorization: Bearer <token>`: a publish, as the clients send it: a JSON
 *   document with the one new version under `versions`, its tarball base64 under `_attachments` and
 *   the tag under `dist-tags`. The body is checked (names agree, one version, the tarball's length
 *   and integrity as the manifest claims, gzip); a version already there is refused with 403 and
 *   npmjs.org's words ("cannot publish over the previously published version"), which
 *   `changeset publish` recognises.
 * - Anything else: 404 (unknown name or file) or 405 (method), as JSON `{ error }`.
 *
 * It listens on 127.0.0.1 on a port the system picks, keeps everything in memory, never holds the
 * process open (`unref`) and closes itself after `lifetimeMs` (default 10 minutes) if nobody did.
 * Why not verdaccio: see this package's README. Its wire behaviour is pinned by `test/registry.test.ts`.
 */
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** A version's manifest: its `package.json` as published (`dist` is filled in by the registry). */
export interface Manifest {
  name: string
  version: string
  dist?: { tarball?: string; integrity?: string; shasum?: string }
  [field: string]: unknown
}

/** A package's document as `GET /<name>` answers it. */
export interface Packument {
  _id: string
  name: string
  "dist-tags": Record<string, string>
  versions: Record<string, Manifest>
  time: Record<string, string>
}

/** How `startRegistry` sets up a registry. */
export interface RegistryOptions {
  /** The token a publish must carry (`//host:port/:_authToken=<token>` in an `.npmrc`). Random by default. */
  token?: string
  /** The registry closes itself after this long. Default 10 minutes. */
  lifetimeMs?: number
  /** Largest request body accepted, in bytes. Default 64 MiB. */
  maxBodyBytes?: number
}

/** A running registry: where it is, what it holds, what it served. */
export interface Registry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string
  /** The token publishes must carry. */
  readonly token: string
  /** `.npmrc` lines that point a client here with the token. */
  npmrc(): string
  /** Adds a version from its manifest and tarball, as a publish would (for packages not built here). */
  add(manifest: Manifest, tarball: Buffer, tag?: string): void
  /** The packument of `name`, or undefined. */
  packument(name: string): Packument | undefined
  /** The versions of `name` held, in publish order (empty when none). */
  versions(name: string): string[]
  /** Every request served, in order: `PUT /@authlib%2fcore 201`. */
  readonly log: string[]
  close(): Promise<void>
}

/** npm's package name rule (lower case, URL-safe, optional scope). */
const NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** The tarball's file name as npm gives it: the name without its scope, then the version. */
export const tarballFile = (name: string, version: string) => `${name.slice(name.indexOf("/") + 1)}-${version}.tgz`

/** The `dist.integrity` of a tarball (SRI, sha512), as npm computes and checks it. */
export const integrityOf = (tarball: Buffer) => `sha512-${createHash("sha512").update(tarball).digest("base64")}`

/** `/@scope%2fname`, `/@scope/name` or `/name` -> the name; `/<name>/-/<file>` -> name and file. */
function route(url: string): { name: string; file?: string } | undefined {
  const path = url.split("?")[0]!
  let decoded: string
  try {
    decoded = decodeURIComponent(path.slice(1))
  } catch {
    return undefined
  }
  const [name, file, ...rest] = decoded.split("/-/")
  if (rest.length > 0 || !name || !NAME.test(name)) return undefined
  if (file === undefined) return { name }
  return /^[a-z0-9._~-]+\.tgz$/.test(file) ? { name, file } : undefined
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new HttpError(413, `request body over ${limit} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

interface PublishBody {
  name?: unknown
  versions?: Record<string, Manifest>
  "dist-tags"?: Record<string, string>
  _attachments?: Record<string, { data?: unknown; length?: unknown }>
}

/** Checks a publish document and returns its one version, tarball and tags. */
function readPublish(name: string, raw: Buffer): { manifest: Manifest; tarball: Buffer; tags: string[] } {
  let body: PublishBody
  try {
    body = JSON.parse(raw.toString("utf8")) as PublishBody
  } catch {
    throw new HttpError(400, "the body is not JSON")
  }
  if (body.name !== name) throw new HttpError(400, `the body names ${String(body.name)}, the URL ${name}`)
  const versions = Object.values(body.versions ?? {})
  const attachments = Object.values(body._attachments ?? {})
  if (versions.length !== 1 || attachments.length !== 1) throw new HttpError(400, "a publish carries exactly one version and one tarball")
  const manifest = versions[0]!
  if (manifest.name !== name || typeof manifest.version !== "string" || !SEMVER.test(manifest.version)) {
    throw new HttpError(400, `bad manifest: ${String(manifest.name)}@${String(manifest.version)}`)
  }
  const { data, length } = attachments[0]!
  if (typeof data !== "string") throw new HttpError(400, "the attachment has no base64 data")
  const tarball = Buffer.from(data, "base64")
  if (typeof length === "number" && length !== tarball.length) throw new HttpError(400, `the attachment is ${tarball.length} bytes, it says ${length}`)
  if (tarball[0] !== 0x1f || tarball[1] !== 0x8b) throw new HttpError(400, "the tarball is not gzip")
  const claimed = manifest.dist?.integrity
  if (claimed !== undefined && claimed !== integrityOf(tarball)) throw new HttpError(400, "the tarball does not match dist.integrity")
  const shasum = manifest.dist?.shasum
  if (shasum !== undefined && shasum !== createHash("sha1").update(tarball).digest("hex")) throw new HttpError(400, "the tarball does not match dist.shasum")
  const tags = Object.entries(body["dist-tags"] ?? {})
    .filter(([, version]) => version === manifest.version)
    .map(([tag]) => tag)
  return { manifest, tarball, tags: tags.length > 0 ? tags : ["latest"] }
}

/** Starts a registry on 127.0.0.1 (a port the system picks); see the module comment for what it serves. */
export async function startRegistry(options: RegistryOptions = {}): Promise<Registry> {
  const token = options.token ?? randomBytes(16).toString("hex")
  const maxBody = options.maxBodyBytes ?? 64 * 1024 * 1024
  const docs = new Map<string, Packument>()
  const tarballs = new Map<string, Buffer>()
  const log: string[] = []
  let url = ""

  function add(manifest: Manifest, tarball: Buffer, tag = "latest"): void {
    const { name, version } = manifest
    if (!NAME.test(name) || typeof version !== "string" || !SEMVER.test(version)) throw new HttpError(400, `bad manifest: ${name}@${version}`)
    const now = new Date().toISOString()
    const doc = docs.get(name) ?? { _id: name, name, "dist-tags": {}, versions: {}, time: { created: now } }
    if (doc.versions[version]) throw new HttpError(403, `You cannot publish over the previously published versions: ${version}.`)
    const file = tarballFile(name, version)
    doc.versions[version] = {
      ...manifest,
      _id: `${name}@${version}`,
      dist: { tarball: `${url}${name}/-/${file}`, integrity: integrityOf(tarball), shasum: createHash("sha1").update(tarball).digest("hex") },
    }
    doc["dist-tags"][tag] = version
    doc.time[version] = now
    doc.time.modified = now
    docs.set(name, doc)
    tarballs.set(`${name}/-/${file}`, tarball)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const target = route(req.url ?? "/")
    if (!target) return (send(res, 404, { error: "not found" }), 404)
    if (target.file !== undefined) {
      if (req.method !== "GET") return (send(res, 405, { error: "method not allowed" }), 405)
      const tarball = tarballs.get(`${target.name}/-/${target.file}`)
      if (!tarball) return (send(res, 404, { error: "not found" }), 404)
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": tarball.length })
      res.end(tarball)
      return 200
    }
    if (req.method === "GET") {
      const doc = docs.get(target.name)
      if (!doc) return (send(res, 404, { error: "not found" }), 404)
      send(res, 200, doc)
      return 200
    }
    if (req.method === "PUT") {
      if (req.headers.authorization !== `Bearer ${token}`) {
        req.resume()
        send(res, 401, { error: "authentication required: a publish needs this registry's token" })
        return 401
      }
      const { manifest, tarball, tags } = readPublish(target.name, await readBody(req, maxBody))
      add(manifest, tarball, tags[0])
      for (const tag of tags.slice(1)) docs.get(manifest.name)!["dist-tags"][tag] = manifest.version
      send(res, 201, { ok: true, id: manifest.name, rev: `${Object.keys(docs.get(manifest.name)!.versions).length}` })
      return 201
    }
    send(res, 405, { error: "method not allowed" })
    return 405
  }

  const server = createServer((req, res) => {
    handle(req, res)
      .then((status) => log.push(`${req.method} ${req.url} ${status}`))
      .catch((err: unknown) => {
        const status = err instanceof HttpError ? err.status : 500
        log.push(`${req.method} ${req.url} ${status}`)
        if (!res.headersSent) send(res, status, { error: (err as Error).message })
        else res.destroy()
      })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", resolve)
  })
  server.unref()
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`

  let closed: Promise<void> | undefined
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      clearTimeout(timer)
      server.close(() => resolve())
      server.closeAllConnections()
    }))
  const timer = setTimeout(() => void close(), options.lifetimeMs ?? 10 * 60_000)
  timer.unref()

  return {
    url,
    token,
    npmrc: () => `registry=${url}\n${url.replace(/^https?:/, "")}:_authToken=${token}\n`,
    add: (manifest, tarball, tag) => add(manifest, tarball, tag),
    packument: (name) => docs.get(name),
    versions: (name) => Object.keys(docs.get(name)?.versions ?? {}),
    log,
    close,
  }
}
