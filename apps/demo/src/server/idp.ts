/**
 * "Demo IdP": a real OpenID Connect provider (oidc-provider 9) started beside the app on 127.0.0.1,
 * with its own login and consent pages (idp-pages.ts) and two demo accounts. The app is registered
 * as a native client on loopback, so its callback URL is accepted on whatever port the app uses.
 */
import type Provider from "oidc-provider"
import type { Adapter, AdapterPayload } from "oidc-provider"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { IDP_ACCOUNTS } from "../lib/demo-login"
import { handleInteraction } from "./idp-pages"

export const IDP_CLIENT = { id: "authlib-demo", secret: randomBytes(24).toString("base64url") }

let started: Promise<{ issuer: string }> | undefined

/** Seconds an access token of the Demo IdP lives. */
export const IDP_ACCESS_TOKEN_TTL = 300

function findAccount(_ctx: unknown, id: string) {
  const account = IDP_ACCOUNTS[id]
  if (!account) return undefined
  return { accountId: id, claims: () => ({ sub: id, name: account.name, email: account.email, email_verified: true }) }
}

/**
 * oidc-provider's storage, in memory, ours: its own in-memory adapter is the "quick start" one and
 * warns at every start. Each model (sessions, grants, codes, tokens) is a map with expiry.
 */
class MemoryStore implements Adapter {
  private static readonly models = new Map<string, Map<string, { payload: AdapterPayload; expiresAt: number }>>()
  private readonly items: Map<string, { payload: AdapterPayload; expiresAt: number }>
  constructor(name: string) {
    this.items = MemoryStore.models.get(name) ?? new Map()
    MemoryStore.models.set(name, this.items)
  }
  async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
    this.items.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY })
  }
  async find(id: string) {
    const item = this.items.get(id)
    if (!item) return undefined
    if (item.expiresAt <= Date.now()) {
      this.items.delete(id)
      return undefined
    }
    return item.payload
  }
  async findByUserCode(userCode: string) {
    for (const [id, item] of this.items) if (item.payload.userCode === userCode) return this.find(id)
    return undefined
  }
  async findByUid(uid: string) {
    for (const [id, item] of this.items) if (item.payload.uid === uid) return this.find(id)
    return undefined
  }
  async consume(id: string) {
    const item = this.items.get(id)
    if (item) item.payload = { ...item.payload, consumed: Math.floor(Date.now() / 1000) }
  }
  async destroy(id: string) {
    this.items.delete(id)
  }
  async revokeByGrantId(grantId: string) {
    for (const [id, item] of this.items) if (item.payload.grantId === grantId) this.items.delete(id)
  }
}

/** A signing key made at start (the demo keeps nothing across restarts): RS256, the ID token default. */
function signingKeys() {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  return { keys: [{ ...privateKey.export({ format: "jwk" }), kid: randomBytes(8).toString("hex"), use: "sig", alg: "RS256" }] }
}

/**
 * oidc-provider 9 supports Node 22+ and says so at import ("Unsupported runtime") on Node 20,
 * where it works (the demo's and core's tests run it there). That one line is dropped so that a
 * first start prints only what the user can act on; every other warning goes through.
 */
async function loadProvider(): Promise<typeof Provider> {
  const warn = console.warn
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("oidc-provider WARNING: Unsupported runtime")) return
    warn(...args)
  }
  try {
    return (await import("oidc-provider")).default
  } finally {
    console.warn = warn
  }
}

function configuration(basePath: string): Record<string, unknown> {
  const callbacks = ["127.0.0.1", "localhost"].map((host) => `http://${host}${basePath}/callback/demo-idp`)
  return {
    clients: [
      {
        client_id: IDP_CLIENT.id,
        client_secret: IDP_CLIENT.secret,
        application_type: "native",
        redirect_uris: callbacks,
        response_types: ["code"],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    findAccount,
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Name and e-mail in the ID token as well, where the app reads the profile from.
    conformIdTokenClaims: false,
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    adapter: MemoryStore,
    jwks: signingKeys(),
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    // Short-lived access tokens and rotating refresh tokens, so the account page shows authlib's
    // getAccessToken refreshing them (every refresh token works once).
    issueRefreshToken: async () => true,
    rotateRefreshToken: true,
    ttl: { AccessToken: IDP_ACCESS_TOKEN_TTL, RefreshToken: 24 * 3600, Grant: 24 * 3600, IdToken: 3600, Session: 24 * 3600, Interaction: 3600 },
  }
}

async function listen(port: number, basePath: string): Promise<{ issuer: string }> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", resolve)
  })
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const OidcProvider = await loadProvider()
  const provider = new OidcProvider(issuer, configuration(basePath))
  provider.on("server_error", (_ctx, err) => console.error("[demo-idp]", err))
  const oidc = provider.callback()
  server.on("request", (req, res) => {
    handleInteraction(provider, req, res)
      .then((handled) => {
        if (!handled) oidc(req, res)
      })
      .catch((err: unknown) => {
        console.error("[demo-idp]", err)
        if (!res.headersSent) res.writeHead(400, { "content-type": "text/plain" }).end("This sign-in request expired or is invalid: start again from the app.")
      })
  })
  return { issuer }
}

/** Starts the IdP once per process (`DEMO_IDP_PORT`, default a free port); resolves its issuer. */
export function startIdp(env: { get(name: string): string | undefined }, basePath = "/auth"): Promise<{ issuer: string }> {
  started ??= listen(Number(env.get("DEMO_IDP_PORT") ?? 0), basePath).catch((err: unknown) => {
    started = undefined
    throw err
  })
  return started
}
