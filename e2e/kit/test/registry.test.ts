/**
 * The test registry speaks the registry API as the clients use it: what a publish sends, what a
 * packument and a tarball look like, what it refuses; then the real npm client publishes, views and
 * installs through it.
 */
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pack } from "../src/third-party.js"
import { integrityOf, startRegistry, type Manifest, type Packument, type Registry } from "../src/registry.js"
import { cleanEnv } from "../src/clean-env.js"
import { npmInstall } from "../src/scratch.js"

const exec = promisify(execFile)

let registry: Registry
let work: string
/** The tarball first published as @scope/pkg@1.0.0. */
let first: Buffer
beforeAll(async () => {
  registry = await startRegistry({ token: "secret-token" })
  work = mkdtempSync(join(tmpdir(), "authlib-registry-test-"))
})
afterAll(async () => {
  await registry?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

/** A real npm tarball of a package with `files`. */
function tarballOf(name: string, version: string, files: Record<string, string> = {}): Buffer {
  const dir = mkdtempSync(join(work, "pkg-"))
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version }))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  return pack(dir)
}

/** The document `npm publish` sends for one version. */
function publishBody(name: string, version: string, tarball: Buffer, tag = "latest", manifest: Partial<Manifest> = {}) {
  const shasum = createHash("sha1").update(tarball).digest("hex")
  return {
    _id: name,
    name,
    "dist-tags": { [tag]: version },
    versions: { [version]: { name, version, _id: `${name}@${version}`, dist: { integrity: integrityOf(tarball), shasum, tarball: `http://elsewhere/${name}/-/x.tgz` }, ...manifest } },
    access: "public",
    _attachments: { [`${name}-${version}.tgz`]: { content_type: "application/octet-stream", data: tarball.toString("base64"), length: tarball.length } },
  }
}

const put = (path: string, body: unknown, token: string | null = registry.token) =>
  fetch(`${registry.url}${path}`, {
    method: "PUT",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  })

const getJson = async <T>(path: string) => {
  const res = await fetch(`${registry.url}${path}`)
  return { status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as T }
}

describe("publish (PUT)", () => {
  it("needs the registry's token", async () => {
    const tarball = tarballOf("@scope/auth", "1.0.0")
    expect((await put("@scope%2fauth", publishBody("@scope/auth", "1.0.0", tarball), null)).status).toBe(401)
    expect((await put("@scope%2fauth", publishBody("@scope/auth", "1.0.0", tarball), "wrong")).status).toBe(401)
    expect(registry.packument("@scope/auth")).toBeUndefined()
  })

  it("stores the version; the packument names it, tags it latest and points at a tarball here with its integrity", async () => {
    const tarball = tarballOf("@scope/pkg", "1.0.0", { "index.js": "export default 1\n" })
    const res = await put("@scope%2fpkg", publishBody("@scope/pkg", "1.0.0", tarball, "latest", { dependencies: { dep: "^2.0.0" } }))
    expect(res.status).toBe(201)
    first = tarball
    for (const path of ["@scope%2fpkg", "@scope%2Fpkg", "@scope/pkg"]) {
      const { status, type, body } = await getJson<Packument>(path)
      expect(status).toBe(200)
      expect(type).toBe("application/json")
      expect(body).toMatchObject({ _id: "@scope/pkg", name: "@scope/pkg", "dist-tags": { latest: "1.0.0" } })
      expect(Object.keys(body.versions)).toEqual(["1.0.0"])
      const version = body.versions["1.0.0"]!
      expect(version).toMatchObject({ name: "@scope/pkg", version: "1.0.0", dependencies: { dep: "^2.0.0" } })
      expect(version.dist).toEqual({
        tarball: `${registry.url}@scope/pkg/-/pkg-1.0.0.tgz`,
        integrity: integrityOf(tarball),
        shasum: createHash("sha1").update(tarball).digest("hex"),
      })
      expect(body.time["1.0.0"]).toMatch(/^\d{4}-\d\d-\d\dT/)
    }
    const download = await fetch(registry.packument("@scope/pkg")!.versions["1.0.0"]!.dist!.tarball!)
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer()).equals(tarball)).toBe(true)
  })

  it("keeps earlier versions, moves only the tag the publish names", async () => {
    expect((await put("@scope%2fpkg", publishBody("@scope/pkg", "1.1.0", tarballOf("@scope/pkg", "1.1.0")))).status).toBe(201)
    expect((await put("@scope%2fpkg", publishBody("@scope/pkg", "2.0.0-beta.1", tarballOf("@scope/pkg", "2.0.0-beta.1"), "next"))).status).toBe(201)
    const { body } = await getJson<Packument>("@scope%2fpkg")
    expect(Object.keys(body.versions)).toEqual(["1.0.0", "1.1.0", "2.0.0-beta.1"])
    expect(body["dist-tags"]).toEqual({ latest: "1.1.0", next: "2.0.0-beta.1" })
    expect((await fetch(`${registry.url}@scope/pkg/-/pkg-1.0.0.tgz`)).status).toBe(200)
  })

  it("refuses a version already there with 403 and npmjs.org's words (what changeset publish recognises)", async () => {
    const res = await put("@scope%2fpkg", publishBody("@scope/pkg", "1.0.0", tarballOf("@scope/pkg", "1.0.0", { "other.js": "" })))
    expect(res.status).toBe(403)
    expect(((await res.json()) as { error: string }).error).toContain("cannot publish over the previously published version")
    const download = await fetch(`${registry.url}@scope/pkg/-/pkg-1.0.0.tgz`)
    expect(Buffer.from(await download.arrayBuffer()).equals(first)).toBe(true)
  })

  it("refuses bodies that do not hold together, and stores nothing from them", async () => {
    const tarball = tarballOf("plain", "1.0.0")
    const good = publishBody("plain", "1.0.0", tarball)
    const cases: Array<[string, unknown, string]> = [
      ["not JSON", "{", "not JSON"],
      ["another name than the URL", { ...good, name: "other" }, "names other"],
      ["no tarball", { ...good, _attachments: {} }, "exactly one version"],
      ["two versions", { ...good, versions: { ...good.versions, "1.0.1": { name: "plain", version: "1.0.1" } } }, "exactly one version"],
      ["a bad version", publishBody("plain", "one", tarball), "bad manifest"],
      ["a wrong length", { ...good, _attachments: { "plain-1.0.0.tgz": { data: tarball.toString("base64"), length: 3 } } }, "it says 3"],
      ["a tarball that is not gzip", publishBody("plain", "1.0.0", Buffer.from("plain text")), "not gzip"],
      ["a tarball that is not the one dist.integrity names", { ...good, versions: { "1.0.0": { ...good.versions["1.0.0"], dist: { integrity: integrityOf(Buffer.from("x")) } } } }, "dist.integrity"],
      ["a tarball that is not the one dist.shasum names", { ...good, versions: { "1.0.0": { ...good.versions["1.0.0"], dist: { shasum: "0".repeat(40) } } } }, "dist.shasum"],
    ]
    for (const [label, body, message] of cases) {
      const res = await put("plain", body)
      expect(res.status, label).toBe(400)
      expect(((await res.json()) as { error: string }).error, label).toContain(message)
    }
    expect(registry.packument("plain")).toBeUndefined()
  })

  it("refuses a body over the size limit with 413", async () => {
    const small = await startRegistry({ maxBodyBytes: 1024 })
    try {
      const res = await fetch(`${small.url}big`, { method: "PUT", headers: { authorization: `Bearer ${small.token}` }, body: "x".repeat(4096) })
      expect(res.status).toBe(413)
    } finally {
      await small.close()
    }
  })
})

describe("reads (GET) and the rest", () => {
  it("answers 404 for unknown packages, versions' tarballs and paths that are not package names; 405 for other methods", async () => {
    expect((await fetch(`${registry.url}nothing-here`)).status).toBe(404)
    expect((await fetch(`${registry.url}@scope%2fnothing`)).status).toBe(404)
    expect((await fetch(`${registry.url}@scope/pkg/-/pkg-9.9.9.tgz`)).status).toBe(404)
    expect((await fetch(`${registry.url}..%2f..%2fetc%2fpasswd`)).status).toBe(404)
    expect((await fetch(`${registry.url}@scope/pkg/-/..%2f..%2fsecret`)).status).toBe(404)
    expect((await fetch(`${registry.url}%E0%A4%A`)).status).toBe(404)
    expect((await fetch(`${registry.url}-/whoami`)).status).toBe(404)
    expect((await fetch(`${registry.url}@scope%2fpkg`, { method: "DELETE" })).status).toBe(405)
    expect((await fetch(`${registry.url}@scope/pkg/-/pkg-1.0.0.tgz`, { method: "PUT", headers: { authorization: `Bearer ${registry.token}` } })).status).toBe(405)
    const { body } = await getJson<{ error: string }>("nothing-here")
    expect(body.error).toBe("not found")
  })

  it("logs every request with its status", () => {
    expect(registry.log).toContain("PUT /@scope%2fpkg 201")
    expect(registry.log).toContain("PUT /@scope%2fpkg 403")
    expect(registry.log).toContain("GET /nothing-here 404")
  })

  it("closes itself after its lifetime", async () => {
    const brief = await startRegistry({ lifetimeMs: 100 })
    expect((await fetch(`${brief.url}x`)).status).toBe(404)
    await new Promise((resolve) => setTimeout(resolve, 300))
    await expect(fetch(`${brief.url}x`)).rejects.toThrow()
  })
})

describe("with the npm client", () => {
  it("npm publish with the token in an .npmrc, npm view, then npm install of a package that depends on it", async () => {
    const lib = join(work, "lib")
    mkdirSync(lib)
    writeFileSync(join(lib, "package.json"), JSON.stringify({ name: "@e2e/lib", version: "1.2.3", type: "module", exports: "./index.js" }))
    writeFileSync(join(lib, "index.js"), "export const answer = 42\n")
    const npmrc = join(work, "publish.npmrc")
    writeFileSync(npmrc, registry.npmrc())
    const npm = (args: string[], cwd: string) => exec("npm", [...args, "--userconfig", npmrc, "--cache", join(work, "cache")], { cwd, env: cleanEnv(), timeout: 60_000 })
    await npm(["publish", "--access", "public"], lib)
    expect(registry.log).toContain("PUT /@e2e%2flib 201")

    const { stdout } = await npm(["view", "@e2e/lib", "--json"], work)
    expect(JSON.parse(stdout)).toMatchObject({ name: "@e2e/lib", version: "1.2.3", "dist-tags": { latest: "1.2.3" } })

    const app = join(work, "app")
    mkdirSync(app)
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module", dependencies: { "@e2e/lib": "^1.2.0" } }))
    await npmInstall(app, registry.url, join(work, "cache"))
    expect(readFileSync(join(app, "node_modules", "@e2e", "lib", "index.js"), "utf8")).toBe("export const answer = 42\n")
    const lock = JSON.parse(readFileSync(join(app, "package-lock.json"), "utf8")) as { packages: Record<string, { resolved: string; integrity: string }> }
    expect(lock.packages["node_modules/@e2e/lib"]).toMatchObject({ resolved: `${registry.url}@e2e/lib/-/lib-1.2.3.tgz`, integrity: registry.packument("@e2e/lib")!.versions["1.2.3"]!.dist!.integrity })
  })
})
