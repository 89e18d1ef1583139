/**
 * GET /passkeys: the signed-in user's passkeys, `{ passkeys: [...] }`.
 * POST /passkeys (CSRF token and Origin checked by the kernel, like every POST): `action` = `rename` (with `id`
 * and `name`) or `delete` (with `id`), `csrfToken`; answers `{ passkey }`, the passkey as renamed
 * or as it was before its deletion. See `manage.ts`.
 */
import { PasskeyManagementError } from "./errors.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { deleteOwnPasskey, listOwnPasskeys, renameOwnPasskey } from "./manage.js"
import type { PasskeyInfo } from "./info.js"
import type { SubActions } from "../../kernel/types/capability.js"

export async function listPasskeysRoute(req: AuthRequest, ctx: Context): Promise<AuthResponse<{ passkeys: PasskeyInfo[] }>> {
  return { json: { passkeys: await listOwnPasskeys(req, ctx) } }
}

/** POST /passkeys, by `action`. */
export const changePasskeyActions: SubActions = {
  handlers: {
    rename: async (req, ctx) => ({ json: { passkey: await renameOwnPasskey(req, ctx, { id: req.body.id, name: req.body.name }) } }),
    delete: async (req, ctx) => ({ json: { passkey: await deleteOwnPasskey(req, ctx, { id: req.body.id }) } }),
  },
  refuse: () => new PasskeyManagementError('"action" must be "rename" or "delete"', { code: "PASSKEY_ACTION_INVALID" }),
}
