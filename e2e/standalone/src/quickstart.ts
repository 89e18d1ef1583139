/**
 * What the root README's quick-start tests run against: the README's marked blocks, an OpenID
 * provider over https (certificate made now by openssl), and a stand-in for github.com.
 */
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer as createHttpServer } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)

/** The fenced block after `<!-- quickstart: <name> -->` in `readme` (the file's text). */
export function readmeBlock(readme: string, name: string): string {
  const marker = `<!-- quickstart: ${name} -->\n`
  const start = readme.indexOf(marker)
  if (start < 0 || !readme.startsWith("```", start + marker.length)) throw new Error(`the README has no quick-start block "${name}"`)
  const body = readme.slice(readme.indexOf("\n", start + marker.length) + 1)
  return body.slice(0, body.indexOf("```"))
}

/** The variables a README `env` block exports, in order. */
export const exportedNames = (block: string) => [...block.matchAll(/^export (\w+)=/gm)].map((m) => m[1])

/** oidc-provider over https with a certificate made now (openssl), dev login and consent pages. */
export async function startHttpsOP(dir: string, redirectUri: string) {
  await run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(dir, "op-key.pem"), "-out", join(dir, "op-cert.pem")], { timeout: 30_000 })
  const { default: Provider } = await import("oidc-provider")
  const server = createHttpsServer({ key: readFileSync(join(dir, "op-key.pem")), cert: readFileSync(join(dir, "op-cert.pem")) })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  const provider = new Provider(issuer, {
    clients: [{ client_id: "quickstart", client_secret: "quickstart-secret-0123456789", redirect_uris: [redirectUri], response_types: ["code"], grant_types: ["authorization_code"] }],
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, email: `${id}@example.com`, email_verified: true, name: "Ada Lovelace" }) }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Profile claims in the ID token too, as most providers send them (the OIDC preset reads the ID token).
    conformIdTokenClaims: false,
    cookies: { keys: ["quickstart-cookie-key-0123456789"] },
    features: { devInteractions: { enabled: true } },
  })
  server.on("request", provider.callback())
  return { issuer, certFile: join(dir, "op-cert.pem"), ca: readFileSync(join(dir, "op-cert.pem"), "utf8"), close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) }
}

/**
 * Loaded with `node --import` into the process that runs a README snippet (never part of the
 * snippet): its `fetch` calls to github.com and api.github.com go to the stand-in named by
 * `GITHUB_STAND_IN` instead, with the URL they were meant for in `x-stand-in-for`.
 */
export const GITHUB_FETCH_ROUTE = `const standIn = process.env.GITHUB_STAND_IN
const fetchOf = globalThis.fetch
globalThis.fetch = (input, init = {}) => {
  if (input instanceof Request) throw new Error("github stand-in: a Request object is not routed")
  const url = new URL(input)
  if (url.hostname !== "github.com" && url.hostname !== "api.github.com") return fetchOf(input, init)
  const headers = new Headers(init.headers)
  headers.set("x-stand-in-for", url.href)
  const path = (url.hostname === "api.github.com" ? "/api" : "") + url.pathname + url.search
  return fetchOf(new URL(path, standIn), { ...init, headers })
}
`

export interface GitHubCall {
  url: string
  authorization: string | undefined
  form: URLSearchParams
}

/**
 * github.com's token endpoint and api.github.com's `GET /user` and `GET /user/emails` (which tells
 * whether the address is verified), as a GitHub OAuth app sees them:
 * the code is exchanged only for the registered client (Basic or form credentials) with the PKCE
 * verifier matching the challenge the authorization request carried (`expect`).
 */
export async function startGitHubStandIn(app: { clientId: string; clientSecret: string }) {
  const calls: GitHubCall[] = []
  const pending = new Map<string, string>()
  const server = createHttpServer((req, res) => {
    let body = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (body += chunk))
    req.on("end", () => {
      const form = new URLSearchParams(body)
      const url = String(req.headers["x-stand-in-for"] ?? req.url)
      calls.push({ url, authorization: req.headers.authorization, form })
      const send = (status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value))
      if (url === "https://github.com/login/oauth/access_token" && req.method === "POST") {
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1]
        const [id, secret] = basic ? Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent) : [form.get("client_id"), form.get("client_secret")]
        const challenge = pending.get(form.get("code") ?? "")
        const verified = challenge !== undefined && createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url") === challenge
        if (id !== app.clientId || secret !== app.clientSecret) return send(401, { error: "incorrect_client_credentials" })
        if (!verified) return send(400, { error: "bad_verification_code" })
        pending.delete(form.get("code")!)
        return send(200, { access_token: "gho_quickstart", token_type: "bearer", scope: "read:user,user:email" })
      }
      if (url === "https://api.github.com/user" && req.headers.authorization === "Bearer gho_quickstart") {
        return send(200, { id: 583231, login: "octocat", name: "The Octocat", email: "octocat@github.com", avatar_url: "https://avatars.githubusercontent.com/u/583231" })
      }
      if (url === "https://api.github.com/user/emails" && req.headers.authorization === "Bearer gho_quickstart") {
        return send(200, [{ email: "octocat@github.com", primary: true, verified: true, visibility: "public" }])
      }
      send(404, { message: "Not Found" })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    /** What GitHub does when the user approves: a code bound to the request's PKCE challenge. */
    approve(code: string, challenge: string) {
      pending.set(code, challenge)
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}
