/**
 * The production server: Qwik City's node middleware on node:http, no framework.
 * `PORT` (default 3000; one that is no port number stops it with one line) and `HOST` (default
 * 127.0.0.1: the demo is local unless you say otherwise).
 * Another `HOST` needs `WEBAUTH_URL`; without it, only loopback Host names are answered (see
 * server/local-only.ts).
 */
import { createQwikCity } from "@builder.io/qwik-city/middleware/node"
import qwikCityPlan from "@qwik-city-plan"
import { createServer } from "node:http"
import render from "./entry.ssr"
import { demoAuthConfig } from "./server/auth-config"
import { hostProblem, listenPort, startupProblem } from "./server/local-only"

const host = process.env.HOST || "127.0.0.1"
const appUrl = process.env.WEBAUTH_URL || undefined

const problem = startupProblem({ HOST: host, WEBAUTH_URL: appUrl, PORT: process.env.PORT })
if (problem) {
  console.error(`[demo] refusing to start: ${problem}`)
  process.exit(1)
}
const port = listenPort(process.env.PORT) ?? 3000

const { router, notFound, staticFile } = createQwikCity({
  render,
  qwikCityPlan,
  static: { cacheControl: "public, max-age=31536000, immutable" },
  // With WEBAUTH_URL, Qwik City's URLs (and its origin check) use it too, not the Host header.
  ...(appUrl ? { origin: new URL(appUrl).origin } : {}),
})

const server = createServer((req, res) => {
  const refused = appUrl ? undefined : hostProblem({ get: (name) => [req.headers[name] ?? null].flat()[0] ?? null })
  if (refused) {
    res.writeHead(421, { "content-type": "text/plain; charset=utf-8" }).end(`${refused}\n`)
    return
  }
  staticFile(req, res, () => {
    router(req, res, () => {
      notFound(req, res, () => {})
    })
  })
})

// Open the embedded database and start the mail server before taking requests, so the first page
// view does not wait for them (PGlite's first start creates the database: several seconds).
try {
  await demoAuthConfig({ get: (name) => process.env[name] })
} catch (err) {
  // A setting the demo cannot use (a mistyped AUTH_SESSION_STRATEGY, an unreachable DATABASE_URL):
  // say which and how to fix it, without a stack trace of the bundled server.
  console.error(`[demo] refusing to start: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
}

// A port another program holds: one line that says so, not a stack trace.
server.once("error", (err: NodeJS.ErrnoException) => {
  const why = err.code === "EADDRINUSE" ? `port ${port} on ${host} is in use: stop what holds it, or start with PORT=<another port>` : err.message
  console.error(`[demo] refusing to start: ${why}`)
  process.exit(1)
})

server.listen(port, host, () => {
  const address = server.address()
  const shown = typeof address === "object" && address ? `${address.address}:${address.port}` : `${host}:${port}`
  console.log(`authlib demo listening on http://${shown}/`)
  if (!appUrl) console.log(`[demo] open http://localhost:${typeof address === "object" && address ? address.port : port}/ for passkeys (browsers refuse them on an IP address)`)
})

// The mail server, the Demo IdP and the database keep the process alive on their own: stop
// taking requests, then exit.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  })
}
