/**
 * Provider tokens: the access token of a linked provider account for the signed-in user, refreshed
 * when it has expired (`getAccessToken`, `access-token.ts`; the refresh grant in `refresh.ts`).
 */
import type { Capability } from "../../kernel/types/capability.js"
import { getAccessToken } from "./access-token.js"

export const providerTokens: Capability = { name: "provider-tokens" }

/** Its server functions, by name. */
export const providerTokensFunctions = { getAccessToken }
