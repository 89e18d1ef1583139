/** Plain HTTP for checks a browser cannot make (a forged Host header). */
import { request } from "node:http"

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

