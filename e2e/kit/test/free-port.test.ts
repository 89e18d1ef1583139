import { createServer, type Server } from "node:net"
import { describe, expect, it } from "vitest"
import { freePort } from "../src/free-port.js"

const listen = (server: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve())
  })
const close = (server: Server) => new Promise((resolve) => server.close(resolve))

describe("freePort", () => {
  it("answers a port that a server can listen on at once (the probe released it)", async () => {
    const port = await freePort()
    expect(Number.isInteger(port) && port > 0 && port < 65536).toBe(true)
    const server = createServer()
    await listen(server, port)
    expect(server.address()).toMatchObject({ address: "127.0.0.1", port })
    await close(server)
  })
})
