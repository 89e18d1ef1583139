/**
 * Passkey management: the signed-in user lists, renames and deletes their passkeys
 * (`GET/POST passkeys`, and the server functions in `functions.ts`). Its error type,
 * `PasskeyManagementError`, is declared in `errors.ts`.
 */
import type { Capability } from "../../kernel/types/capability.js"
import { passkeyManagementErrors } from "./errors.js"
import { changePasskeyActions, listPasskeysRoute } from "./route.js"

export const passkeyManagement: Capability = {
  name: "passkey-management",
  requires: ["webauthn", "linked-accounts"],
  routes: [{ action: "passkeys", answers: "json", GET: { handler: listPasskeysRoute, csrf: false }, POST: { actions: changePasskeyActions, csrf: true } }],
  errors: passkeyManagementErrors,
}
