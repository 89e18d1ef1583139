/// <reference path="./oidc-provider.d.ts" />
/**
 * A real OpenID provider (oidc-provider 9) on 127.0.0.1 with dev interactions, a few clients and
 * accounts: the happy-path counterpart of the hostile OP.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import Provider from "oidc-provider"

export interface TestAccount {
  sub: string
  email: string
  name: string
  picture?: string
  /** What the OP says of the address (`email_verified`); default true. */
  emailVerified?: boolean
}

export const accounts: Record<string, TestAccount> = {
  alice: { sub: "alice", email: "Alice@Example.com", name: "Alice Liddell", picture: "https://img.example/alice.png" },
  bob: { sub: "bob", email: "bob@example.com", name: "Bob Builder" },
  // An attacker who typed someone else's address at this OP, which never checked it.
  mallory: { sub: "mallory", email: "victim@example.com", name: "Mallory", emailVerified: false },
}

export interface LocalOP {
  issuer: string
  /** Requests for the discovery document so far. */
  discoveryRequests: number
  /** Requests to the token endpoint so far. */
  tokenRequests: number
  close(): Promise<void>
}

/** Client ids registered at the OP; each is valid for any redirect URI in `redirectUris`. */
export const clients = {
  basic: { client_id: "app-basic", client_secret: "secret-basic-0123456789abcdef", token_endpoint_auth_method: "client_secret_basic" },
  post: { client_id: "app-post", client_secret: "secret-post-0123456789abcdef", token_endpoint_auth_method: "client_secret_post" },
  public: { client_id: "app-public", token_endpoint_auth_method: "none" },
} as const

function findAccount(_ctx: unknown, id: string) {
  const account = accounts[id]
  if (!account) return undefined
  return {
    accountId: id,
    claims: () => {
      const { emailVerified, ...claims } = account
      return { ...claims, email_verified: emailVerified ?? true }
    },
  }
}

/** Options of `startLocalOP`. */
export interface LocalOPOptions {
  /** Issue rotating refresh tokens (every grant) and access tokens living this many seconds. */
  refresh?: { accessTokenTtl: number }
  /** Where RP-Initiated Logout may send the browser back to (registered on every client). */
  postLogoutRedirectUris?: string[]
  /** The authentication methods the OP says each account's login used (the ID token's `amr`), by account id. */
  amr?: Record<string, string[]>
}

/** Starts the OP. `redirectUris` are the callback URLs of the apps under test. */
export async function startLocalOP(redirectUris: string[], options: LocalOPOptions = {}): Promise<LocalOP> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const provider = new Provider(issuer, {
    clients: Object.values(clients).map((c) => ({
      ...c,
      redirect_uris: redirectUris,
      response_types: ["code"],
      grant_types: options.refresh ? ["authorization_code", "refresh_token"] : ["authorization_code"],
      ...(options.postLogoutRedirectUris ? { post_logout_redirect_uris: options.postLogoutRedirectUris } : {}),
    })),
    ...(options.refresh
      ? { issueRefreshToken: async () => true, rotateRefreshToken: true, ttl: { AccessToken: options.refresh.accessTokenTtl, RefreshToken: 3600, Grant: 3600, IdToken: 3600, Session: 3600, Interaction: 3600 } }
      : {}),
    findAccount,
    // `amr` passes the OP's claim filter only when a scope names it.
    claims: { openid: options.amr ? ["sub", "amr"] : ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    // Claims in the ID token too, so `idToken: true` sign-ins see e-mail and name.
    conformIdTokenClaims: false,
    cookies: { keys: ["test-cookie-key-0123456789"] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => false },
  })
  provider.on("server_error", (_ctx: unknown, err: Error) => console.error("[local-op]", err))
  const amr = options.amr
  if (amr) {
    // The dev login reports no methods: the login result gets the account's, which the OP signs into the ID token.
    const finished = provider.interactionFinished.bind(provider)
    provider.interactionFinished = (req, res, result, more) =>
      finished(req, res, result.login ? { ...result, login: { ...result.login, amr: amr[result.login.accountId as string] } } : result, more)
  }
  const op = { issuer, discoveryRequests: 0, tokenRequests: 0 }
  server.on("request", (req) => {
    if (req.url?.startsWith("/.well-known/")) op.discoveryRequests++
    if (req.url?.startsWith("/token")) op.tokenRequests++
  })
  server.on("request", provider.callback())
  return Object.assign(op, {
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  })
}
