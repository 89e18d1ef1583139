/**
 * The server functions of `@authlib/core/node`: every server function of the root entry has a twin
 * of the same name there (the export lists compared through the compiler), taking the Node request
 * where the root one takes a `Request`, and completing the configuration from `process.env` as
 * `getSession` does, those without a request (`revokeUserSessions`, `unlockTwoFactor`) included.
 * Run on a real `node:http` server with `AUTH_SECRET` only in the environment.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { httpBrowser } from "./http-browser.js"
import { afterEach, describe, expect, it } from "vitest"
import * as node from "../../src/node/index.js"
import { AuthError, getTwoFactorStatus as rootGetTwoFactorStatus, type AuthConfig } from "../../src/index.js"
import { serverFunctions } from "../../src/internal.js"
import { alice, credentials, recordingLogger, SECRET } from "../helpers/harness.js"
import { twoFactorAdapter } from "../helpers/two-factor-adapter.js"

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url))

/** Each exported function of `entry` with the type of each of its first signature's parameters, as written. */
function exportedFunctions(program: ts.Program, entry: string): Map<string, string[]> {
  const checker = program.getTypeChecker()
  const file = program.getSourceFile(entry)!
  const out = new Map<string, string[]>()
  for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(file)!)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    if (!(target.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable))) continue
    const signature = checker.getTypeOfSymbol(target).getCallSignatures()[0]
    if (!signature) continue
    // A rest parameter of a tuple type (`...rest: [input: X]`) counts as the parameters it spells.
    const types = signature.parameters.flatMap((p) => {
      const type = checker.getTypeOfSymbol(p)
      const rest = p.valueDeclaration && ts.isParameter(p.valueDeclaration) && p.valueDeclaration.dotDotDotToken
      return rest && checker.isTupleType(type) ? checker.getTypeArguments(type as ts.TypeReference) : [type]
    })
    // An optional tuple element reads `X | undefined`, an optional parameter `X`: compared as `X`.
    out.set(symbol.name, types.map((t) => checker.typeToString(t).replace(/ \| undefined$/, "")))
  }
  return out
}

describe("the Node twins of the root's server functions", () => {
  it("every root function taking a Request, or the config first (server functions), has a twin of the same name in @authlib/core/node, taking IncomingMessage for the Request", () => {
    const program = ts.createProgram([src("index.ts"), src("node/index.ts")], { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: ["node"], noEmit: true })
    const root = exportedFunctions(program, src("index.ts"))
    const twins = exportedFunctions(program, src("node/index.ts"))
    // `Auth` is the handler (its Node form is `toNodeHandler`), not a server function.
    const serverFunctions = [...root].filter(([name, params]) => name !== "Auth" && (params.includes("Request") || params[0] === "AuthConfig"))
    // The list is what the root exports today, so a new server function is found by the rule above.
    expect(serverFunctions.length).toBeGreaterThanOrEqual(23)
    const missing = serverFunctions.filter(([name]) => !twins.has(name)).map(([name]) => name)
    expect(missing).toEqual([])
    for (const [name, params] of serverFunctions) {
      const expected = params.map((p) => (p === "Request" ? "IncomingMessage" : p))
      expect([name, twins.get(name)]).toEqual([name, expected])
    }
  }, 60_000)

  it("every name of core's typed map (serverFunctions) has its twin here, made by forNode for that name", () => {
    const twins = node as unknown as Record<string, unknown>
    for (const name of Object.keys(serverFunctions)) expect([name, typeof twins[name], (twins[name] as { name?: string }).name]).toEqual([name, "function", name])
  })
})

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve)))))
})

/** `AUTH_SECRET` in `process.env` while `run` runs, then as it was. */
async function withEnvSecret<T>(value: string | undefined, run: () => Promise<T>): Promise<T> {
  const previous = process.env.AUTH_SECRET
  if (value === undefined) delete process.env.AUTH_SECRET
  else process.env.AUTH_SECRET = value
  try {
    return await run()
  } finally {
    if (previous === undefined) delete process.env.AUTH_SECRET
    else process.env.AUTH_SECRET = previous
  }
}

/** A config with no `secret`: it must come from `AUTH_SECRET`. Database sessions, two factors on. */
function appConfig() {
  const adapter = twoFactorAdapter()
  adapter.users.set(alice.id!, { ...alice, id: alice.id!, email: alice.email!, emailVerified: null })
  const { logger, entries } = recordingLogger()
  const config: AuthConfig = { trustHost: true, providers: [credentials()], adapter, session: { strategy: "database" }, twoFactor: { issuer: "Example" }, rateLimit: false, logger }
  return { config, adapter, entries }
}

/** The app's own routes, each calling one twin; an `AuthError` answers its type and code. */
function app(config: AuthConfig) {
  const routes: Record<string, (req: IncomingMessage) => Promise<unknown>> = {
    "/two-factor": (req) => node.getTwoFactorStatus(req, config),
    "/root-two-factor": () => rootGetTwoFactorStatus(new Request("http://127.0.0.1/"), config),
    "/sessions": (req) => node.listSessions(req, config),
    "/ways-in": (req) => node.listSignInMethods(req, config),
    "/unlock": () => node.unlockTwoFactor(config, "user-1"),
    "/end-all": () => node.revokeUserSessions(config, "user-1"),
  }
  return async (req: IncomingMessage, res: ServerResponse) => {
    const route = routes[req.url ?? ""]
    if (!route) return void res.writeHead(404).end()
    try {
      const value = await route(req)
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value ?? null))
    } catch (err) {
      if (!(err instanceof AuthError)) throw err
      res.writeHead(err.type === "SessionRequired" ? 401 : 500, { "content-type": "application/json" }).end(JSON.stringify({ error: err.type, code: err.code, message: err.message }))
    }
  }
}

async function serve(config: AuthConfig): Promise<string> {
  const auth = node.toNodeHandler(config)
  const routes = app(config)
  const server = createServer((req, res) => auth(req, res, () => routes(req, res)))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}


describe("on node:http with AUTH_SECRET only in the environment", () => {
  it("two-factor status, sessions and ways in for the signed-in user; unlockTwoFactor and revokeUserSessions (no request) read the environment too", async () => {
    await withEnvSecret(SECRET, async () => {
      const { config } = appConfig()
      const origin = await serve(config)
      const b = httpBrowser(origin)
      expect(await (await b.request("/two-factor")).json()).toMatchObject({ error: "SessionRequired" })
      expect((await b.signIn()).status).toBe(302)
      const status = await b.request("/two-factor")
      expect([status.status, await status.json()]).toEqual([200, { enabled: false, backupCodesLeft: 0 }])
      const sessions = (await (await b.request("/sessions")).json()) as Array<{ current: boolean }>
      expect(sessions.map((s) => s.current)).toEqual([true])
      expect((await b.request("/ways-in")).status).toBe(200)
      expect(await (await b.request("/unlock")).json()).toBe(false)
      expect(await (await b.request("/end-all")).json()).toBe(1)
      expect((await b.request("/two-factor")).status).toBe(401)
      expect(config.secret).toBeUndefined()
    })
  })

  it("with AUTH_SECRET unset the twin's error says the environment has none; the root function on the app's own (not completed) config does not claim AUTH_SECRET is unset", async () => {
    const messages = await withEnvSecret(undefined, async () => {
      const { config } = appConfig()
      const origin = await serve(config)
      const res = await fetch(`${origin}/unlock`)
      return { status: res.status, body: (await res.json()) as { code: string; message: string } }
    })
    expect(messages.status).toBe(500)
    expect(messages.body).toMatchObject({ code: "SECRET_MISSING", message: expect.stringContaining("set AUTH_SECRET") })
    await withEnvSecret(SECRET, async () => {
      const { config } = appConfig()
      const origin = await serve(config)
      const res = await fetch(`${origin}/root-two-factor`)
      const body = (await res.json()) as { code: string; message: string }
      expect(body.code).toBe("SECRET_MISSING")
      // AUTH_SECRET is set: the message says why it was not read, never to set it.
      expect(body.message).not.toMatch(/set AUTH_SECRET/)
      expect(body.message).toContain("not completed from the environment")
      expect(body.message).toContain("@authlib/core/node")
    })
  })
})
