/**
 * A provider whose token endpoint accepts the request and never answers: each attempt gives up
 * after `REFRESH_TIMEOUT_MS` (10 s), the request is sent once more, then `REFRESH_FAILED`; the
 * stored tokens are unchanged. (Its own file: it takes two timeouts.)
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, expect, it } from "vitest"
import { getAccessToken, type AdapterAccount, type AuthConfig, type OAuthConfig } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/capabilities/oauth/index.js"
import { REFRESH_TIMEOUT_MS } from "../../../src/capabilities/provider-tokens/refresh.js"
import { Client, config } from "../../helpers/harness.js"

let server: Server
let issuer: string
let tokenRequests = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/.well-known/openid-configuration") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` }))
      return
    }
    if (req.url === "/token") tokenRequests++ // ... and never answer.
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))

it("a token endpoint that never answers: two attempts of 10 s, then REFRESH_FAILED, stored tokens unchanged", async () => {
  const account: AdapterAccount = { userId: "user-1", type: "oidc", provider: "slow", providerAccountId: "p-1", access_token: "old", refresh_token: "rt", expires_at: 1, token_type: "bearer" }
  const provider = { id: "slow", name: "Slow", type: "oidc", issuer, clientId: "c", clientSecret: "s", [allowInsecureOAuthRequests]: true } as unknown as OAuthConfig
  const cfg: AuthConfig = config({
    providers: [provider],
    session: { strategy: "jwt" },
    adapter: {
      listAccountsByUserId: async () => [{ ...account }],
      getAccount: async () => ({ ...account }),
      updateAccount: async (patch, expected) => (expected?.refresh_token === account.refresh_token ? (Object.assign(account, patch), { ...account }) : null),
    },
  })
  // A JWT session for user-1, signed in with the harness's credentials provider.
  const signer = new Client(config())
  await signer.signIn()
  const request = new Request("http://localhost:3000/api", { headers: { cookie: `authlib.session-token=${signer.jar.get("authlib.session-token")}` } })
  const started = Date.now()
  const err = await getAccessToken(request, cfg, "slow").catch((e: unknown) => e)
  expect(err).toMatchObject({ type: "RefreshTokenError", code: "REFRESH_FAILED" })
  expect(tokenRequests).toBe(2)
  expect(Date.now() - started).toBeGreaterThanOrEqual(2 * REFRESH_TIMEOUT_MS - 100)
  expect(account).toMatchObject({ access_token: "old", refresh_token: "rt", expires_at: 1 })
}, 3 * REFRESH_TIMEOUT_MS + 5_000)
