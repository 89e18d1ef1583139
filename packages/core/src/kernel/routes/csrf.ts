/** GET /csrf: the request's CSRF token; a new one (with its cookie) when it has none that verifies. */
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { csrfTokenFor } from "../security/csrf.js"

export async function csrf(req: AuthRequest, ctx: Context): Promise<AuthResponse<{ csrfToken: string }>> {
  const { token, cookie } = await csrfTokenFor(req, ctx)
  return { json: { csrfToken: token }, cookies: cookie ? [cookie] : [] }
}
