/** Plain HTTP for checks a browser cannot make (a forged Host header), and a free loopback port. */
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"

/** A GET with exactly these headers (fetch would not let a test set Host). */
export function rawGet(origin: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }))
    })
    req.on("timeout", () => req.destroy(new Error(`GET ${path} timed out`)))
    req.on("error", reject)
    req.end()
  })
}

/** A port that was free on 127.0.0.1 a moment ago (for a server that must know its URL up front). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
