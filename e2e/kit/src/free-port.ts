/**
 * A free TCP port on the loopback interface, for a server the test must name before it starts (a
 * child process told its port, an IdP configured with its own URL).
 */
import { createServer, type AddressInfo } from "node:net"

/**
 * A port that was free on 127.0.0.1 a moment ago: the operating system picks one (`listen(0)`), it is
 * read, and the socket is released before the promise resolves. Another process may take it in
 * between, so a server started on it should fail loudly rather than wait. Rejects when nothing can
 * listen on 127.0.0.1.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}
