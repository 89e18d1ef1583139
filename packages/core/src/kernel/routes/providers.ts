/** GET /providers: every configured provider as an `AppProvider` (id, name, type, URLs). */
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { toAppProvider } from "../providers/normalize.js"
import type { AppProvider } from "../types/providers.js"

export async function providers(_req: AuthRequest, ctx: Context): Promise<AuthResponse<Record<string, AppProvider>>> {
  const out: Record<string, AppProvider> = {}
  for (const provider of ctx.config.providers) out[provider.id] = toAppProvider(provider, ctx.actionBase)
  return { json: out }
}
