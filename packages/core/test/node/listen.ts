/**
 * Real `node:http` servers for the Node tests, on free loopback ports: `listen` starts one and
 * answers its origin; every server a test started is closed after it (`afterEach`, registered by
 * importing this module into a test file).
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach } from "vitest"

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve)))))
})

/** Starts `server` on 127.0.0.1 and a free port; its origin. */
export async function listen(server: Server): Promise<string> {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
