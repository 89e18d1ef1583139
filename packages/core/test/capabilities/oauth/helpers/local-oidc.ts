/**
 * A test file's own OpenID provider (`oidc-provider` on 127.0.0.1, started before its tests and
 * closed after them) and the app's OIDC provider config for it (id `op`, the basic client, plain
 * http allowed for the loopback issuer).
 */
import { afterAll, beforeAll } from "vitest"
import type { OAuthConfig } from "../../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../../src/capabilities/oauth/index.js"
import { callbackOf } from "./app.js"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"

/** Starts the provider for this file (redirect URIs default to the app's `callback/op`); answers the config maker. */
export function useLocalOidc(redirectUris: string[] = [callbackOf("op")]): (over?: Partial<OAuthConfig>) => OAuthConfig {
  let op: LocalOP
  beforeAll(async () => {
    op = await startLocalOP(redirectUris)
  })
  afterAll(() => op.close())
  return (over = {}) =>
    ({ id: "op", name: "Local OP", type: "oidc", issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret, [allowInsecureOAuthRequests]: true, ...over }) as unknown as OAuthConfig
}
