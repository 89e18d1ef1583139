/**
 * Provider tokens: the access token of a linked provider account for the signed-in user, refreshed
 * when it has expired (`getAccessToken`, `functions.ts`; the refresh grant in `refresh.ts`),
 * with the adapter port it keeps them through (`accountTokens`). It builds on the OAuth client.
 */
import type { Capability } from "../../kernel/types/capability.js"
import { ACCOUNT_TOKENS_PORT } from "./port.js"

export const providerTokens: Capability = {
  name: "provider-tokens",
  requires: ["oauth"],
  ports: { accountTokens: ACCOUNT_TOKENS_PORT },
}
