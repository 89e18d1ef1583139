/**
 * `basePath` means one mount point whatever its spelling, through `Auth()` and `toNodeHandler`
 * alike (the Qwik binding has its own test): `"/"` mounts the routes at the root without taking the
 * app's other paths, `"auth"` and `"/auth/"` are `/auth`, and a nested path works.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { Auth } from "../../../src/index.js"
import { toNodeHandler } from "../../../src/node/index.js"
import { normalizeBasePath } from "../../../src/kernel/config/base-path.js"
import { isAuthPath } from "../../../src/registry.js"
import { config } from "../../helpers/harness.js"

const CASES: Array<[string, string]> = [["/", ""], ["auth", "/auth"], ["/auth/", "/auth"], ["/a/b", "/a/b"]]

const servers: Server[] = []
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve)))))

async function nodeApp(basePath: string): Promise<string> {
  const auth = toNodeHandler(config({ basePath }))
  const server = createServer((req, res) => auth(req, res, () => res.writeHead(200, { "content-type": "text/plain" }).end("the app")))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe("basePath", () => {
  it.each(CASES)("%j is normalised to %j", (given, normal) => {
    expect(normalizeBasePath(given)).toBe(normal)
  })

  it.each(CASES)("%j: Auth() and toNodeHandler answer the same routes; the app keeps its own paths", async (basePath, normal) => {
    const viaAuth = await Auth(new Request(`http://localhost:3000${normal}/providers`), config({ basePath }))
    expect(viaAuth.status).toBe(200)
    expect(Object.keys((await viaAuth.json()) as object)).toContain("credentials")
    const origin = await nodeApp(basePath)
    const viaNode = await fetch(`${origin}${normal}/providers`)
    expect(viaNode.status).toBe(200)
    expect(Object.keys((await viaNode.json()) as object)).toContain("credentials")
    // A path of the app's own, even next to the routes at the root, is the app's.
    expect(await (await fetch(`${origin}/dashboard`)).text()).toBe("the app")
    expect(isAuthPath("/dashboard", normal)).toBe(false)
    expect(isAuthPath(`${normal}/session`, normal)).toBe(true)
  })
})
