/**
 * A hostile OpenID provider on node:http: honest discovery and JWKS, but an authorization response
 * and tokens it forges on purpose, per `scenario`. Every forged answer must end in an error page.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose"

export type Scenario =
  | "honest"
  | "wrong-iss"
  | "wrong-aud"
  | "expired"
  | "bad-signature"
  | "alg-none"
  | "wrong-nonce"
  | "no-iss-param"
  | "wrong-iss-param"
  | "userinfo-other-sub"
  /** Multi-tenant issuer (Entra `common`): ID tokens from tenant-1, with a matching `tid`. */
  | "tenant"
  /** As `tenant`, but the token's `iss` names tenant-2 while its `tid` says tenant-1. */
  | "tenant-mismatch"

export interface HostileOP {
  issuer: string
  clientId: string
  scenario: Scenario
  /** How many token requests reached the OP (a refused callback must not even get here). */
  tokenRequests: number
  close(): Promise<void>
}

interface Grant {
  nonce: string | undefined
}

const SUBJECT = "mallory-sub"

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  let body = ""
  for await (const chunk of req) body += chunk
  return new URLSearchParams(body)
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" })
  res.end(JSON.stringify(body))
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

export async function startHostileOP(): Promise<HostileOP> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const keys = await generateKeyPair("RS256")
  const otherKeys = await generateKeyPair("RS256")
  const jwk: JWK = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" }
  const grants = new Map<string, Grant>()
  const op: HostileOP = {
    issuer,
    clientId: "hostile-client",
    scenario: "honest",
    tokenRequests: 0,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }

  async function idToken(nonce: string | undefined): Promise<string> {
    const s = op.scenario
    const now = Math.floor(Date.now() / 1000)
    const claims: Record<string, unknown> = { sub: SUBJECT, email: "mallory@example.com", name: "Mallory" }
    if (nonce !== undefined) claims.nonce = s === "wrong-nonce" ? "not-the-nonce" : nonce
    if (s === "alg-none") {
      return `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims, iss: issuer, aud: op.clientId, iat: now, exp: now + 300 })}.`
    }
    const key: CryptoKey = s === "bad-signature" ? otherKeys.privateKey : keys.privateKey
    if (s.startsWith("tenant")) claims.tid = "tenant-1"
    const iss = s === "wrong-iss" ? "http://127.0.0.1:1/evil" : s === "tenant" ? `${issuer}/tenant-1/v2.0` : s === "tenant-mismatch" ? `${issuer}/tenant-2/v2.0` : issuer
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(iss)
      .setAudience(s === "wrong-aud" ? "someone-else" : op.clientId)
      .setIssuedAt(s === "expired" ? now - 7200 : now)
      .setExpirationTime(s === "expired" ? now - 3600 : now + 300)
      .sign(key)
  }

  function authorize(url: URL, res: ServerResponse): void {
    const code = crypto.randomUUID()
    grants.set(code, { nonce: url.searchParams.get("nonce") ?? undefined })
    const back = new URL(url.searchParams.get("redirect_uri")!)
    back.searchParams.set("code", code)
    const state = url.searchParams.get("state")
    if (state) back.searchParams.set("state", state)
    if (op.scenario === "wrong-iss-param") back.searchParams.set("iss", "http://127.0.0.1:1/evil")
    else if (op.scenario !== "no-iss-param" && !op.scenario.startsWith("tenant")) back.searchParams.set("iss", issuer)
    res.writeHead(302, { location: back.href })
    res.end()
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    op.tokenRequests++
    const body = await readBody(req)
    const grant = grants.get(body.get("code") ?? "")
    if (!grant) {
      res.writeHead(400, { "content-type": "application/json" })
      return void res.end(JSON.stringify({ error: "invalid_grant", error_description: "unknown code" }))
    }
    grants.delete(body.get("code")!)
    json(res, { access_token: `at-${crypto.randomUUID()}`, token_type: "Bearer", expires_in: 600, id_token: await idToken(grant.nonce), scope: "openid" })
  }

  const metadata = () => ({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    userinfo_endpoint: `${issuer}/userinfo`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256", "none"],
    authorization_response_iss_parameter_supported: true,
  })

  server.on("request", (req, res) => {
    const url = new URL(req.url ?? "/", issuer)
    const route = `${req.method} ${url.pathname}`
    const done = (p: Promise<void> | void) => Promise.resolve(p).catch((err) => { res.writeHead(500); res.end(String(err)) })
    if (route === "GET /.well-known/openid-configuration") return json(res, metadata())
    if (route === "GET /common/v2.0/.well-known/openid-configuration") {
      const { authorization_response_iss_parameter_supported: _, ...doc } = metadata()
      return json(res, { ...doc, issuer: `${issuer}/{tenantid}/v2.0` })
    }
    if (route === "GET /jwks") return json(res, { keys: [jwk] })
    if (route === "GET /authorize") return authorize(url, res)
    if (route === "POST /token") return done(token(req, res))
    if (route === "GET /userinfo") {
      return json(res, { sub: op.scenario === "userinfo-other-sub" ? "victim-sub" : SUBJECT, email: "victim@example.com", name: "Victim" })
    }
    res.writeHead(404)
    res.end()
  })
  return op
}
