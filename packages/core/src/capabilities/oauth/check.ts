/** Start-up check of an OAuth/OIDC provider. */
import { Configuration, type AuthError } from "../../kernel/errors/errors.js"
import { envStem } from "../../kernel/config/env.js"
import type { ProviderConfig } from "../../kernel/types/providers.js"

/** Without a client id the provider fails only when a user clicks it: say so at start-up. */
export function checkOAuthProvider(p: ProviderConfig): AuthError | undefined {
  const { clientId } = p as { clientId?: unknown }
  if (typeof clientId === "string" && clientId !== "") return undefined
  return new Configuration(`Provider "${p.id}" has no "clientId": set AUTH_${envStem(p.id)}_ID (and AUTH_${envStem(p.id)}_SECRET), or pass clientId to the provider`, {
    code: "CLIENT_ID_MISSING",
    cause: { provider: p.id },
  })
}
