/** The in-test registry speaks the parts of the npm registry API the clients use, and refuses the rest. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startRegistry, type LocalRegistry } from "../src/registry.js"

let registry: LocalRegistry
beforeAll(async () => {
  registry = await startRegistry()
})
afterAll(() => registry.close())

const publish = (name: string, version: string, auth = true) =>
  fetch(`${registry.url}${name.replace("/", "%2f")}`, {
    method: "PUT",
    headers: { "content-type": "application/json", ...(auth ? { authorization: "Bearer t" } : {}) },
    body: JSON.stringify({ name, versions: { [version]: { name, version } }, _attachments: { [`${name}-${version}.tgz`]: { data: Buffer.from(`tarball of ${version}`).toString("base64") } } }),
  })

describe("local registry", () => {
  it("publishes with a token, serves the packument (scoped names both ways) and the tarball with its integrity", async () => {
    expect((await publish("@scope/pkg", "1.0.0", false)).status).toBe(401)
    expect((await publish("@scope/pkg", "1.0.0")).status).toBe(201)
    expect((await publish("@scope/pkg", "1.1.0")).status).toBe(201)
    expect((await publish("@scope/pkg", "1.1.0")).status).toBe(409)
    for (const path of ["@scope%2fpkg", "@scope/pkg"]) {
      const doc = (await (await fetch(`${registry.url}${path}`)).json()) as { "dist-tags": { latest: string }; versions: Record<string, { dist: { tarball: string; integrity: string } }> }
      expect(doc["dist-tags"].latest).toBe("1.1.0")
      expect(Object.keys(doc.versions)).toEqual(["1.0.0", "1.1.0"])
      const { tarball, integrity } = doc.versions["1.0.0"]!.dist
      expect(tarball).toBe(`${registry.url}@scope/pkg/-/pkg-1.0.0.tgz`)
      const body = Buffer.from(await (await fetch(tarball)).arrayBuffer())
      expect(body.toString()).toBe("tarball of 1.0.0")
      const { createHash } = await import("node:crypto")
      expect(integrity).toBe(`sha512-${createHash("sha512").update(body).digest("base64")}`)
    }
  })

  it("answers 404 for unknown packages and tarballs, 405 for other methods, 400 for a publish without a tarball", async () => {
    expect((await fetch(`${registry.url}nope`)).status).toBe(404)
    expect((await fetch(`${registry.url}nope/-/nope-1.0.0.tgz`)).status).toBe(404)
    expect((await fetch(`${registry.url}..%2f..%2fetc%2fpasswd`)).status).toBe(404)
    expect((await fetch(`${registry.url}pkg`, { method: "DELETE" })).status).toBe(405)
    const bare = await fetch(`${registry.url}pkg`, { method: "PUT", headers: { authorization: "Bearer t" }, body: JSON.stringify({ name: "pkg", versions: {} }) })
    expect(bare.status).toBe(400)
  })
})
