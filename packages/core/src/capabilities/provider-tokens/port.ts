/** The adapter port of provider tokens: kept on account rows and refreshed there. */

/** The methods an adapter implements together to keep provider tokens on its account rows. */
export const ACCOUNT_TOKENS_PORT = ["listAccountsByUserId", "updateAccount", "getAccount"] as const

declare module "../../kernel/types/adapters.js" {
  interface CapabilityPorts {
    /** Provider tokens kept on account rows and refreshed there. */
    accountTokens: typeof ACCOUNT_TOKENS_PORT
  }
}
