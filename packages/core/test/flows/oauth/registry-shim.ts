// Interim: routes the oauth/oidc types to the OAuth flow until flows/index.ts registers it.
import { vi } from "vitest"

vi.mock("../../../src/flows/index.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../src/flows/index.js")>()
  const { oauthFlow } = await import("../../../src/flows/oauth/index.js")
  const isOAuth = (type: string) => type === "oauth" || type === "oidc"
  return {
    ...original,
    hasFlow: (type: any) => isOAuth(type) || original.hasFlow(type),
    flowFor: (provider: any) => (isOAuth(provider.type) ? oauthFlow : original.flowFor(provider)),
  }
})
