/**
 * Provider tokens: the access token of a linked provider account for the signed-in user, refreshed
 * when it has expired (`getAccessToken`, `functions.ts`; the refresh grant in `refresh.ts`).
 */
import type { Capability } from "../../kernel/types/capability.js"

export const providerTokens: Capability = { name: "provider-tokens" }
