/**
 * Server functions for managing the signed-in user's passkeys, for server code (a framework
 * action or loader) that holds the incoming request: the user is the one whose session the
 * request's cookies carry, in either session strategy.
 *
 * They do not check a CSRF token: call them only from endpoints that are themselves protected
 * (same-origin POST actions, as Qwik City's and most frameworks' are by default). Browsers talking
 * to authlib directly use the CSRF-protected routes GET and POST `{basePath}/passkeys`.
 *
 * Errors are thrown as `AuthError`s: `SessionRequired` (no valid session), `PasskeyManagementError`
 * (`PASSKEY_UNKNOWN`, also for another user's passkey; `PASSKEY_ID_MISSING`; `PASSKEY_NAME_INVALID`;
 * `LAST_SIGN_IN_METHOD`), `MissingAdapter` (the adapter lacks a method the call needs),
 * `UnknownAction` (no passkey provider is configured), `AdapterError`.
 */
import { deleteOwnPasskey, listOwnPasskeys, renameOwnPasskey } from "./manage.js"
import type { PasskeyInfo } from "./info.js"
import { serverFunction } from "../../kernel/run/server-function.js"

/**
 * The signed-in user's passkeys: id (base64url credential id), name, created, last used,
 * backed-up flag, device type, transports; never the public key. Needs the adapter's
 * `listAuthenticatorsByUserId`.
 */
export const listPasskeys = serverFunction("passkeys", (req, ctx): Promise<PasskeyInfo[]> => listOwnPasskeys(req, ctx))

/**
 * Renames one of the signed-in user's passkeys; resolves it as renamed. `name` is cleaned
 * (control and format characters removed, trimmed, at most 64 characters); nothing left is
 * refused (`PASSKEY_NAME_INVALID`). Needs the adapter's `updateAuthenticator`.
 */
export const renamePasskey = serverFunction("passkeys", (req, ctx, input: { id: string; name: string }): Promise<PasskeyInfo> => renameOwnPasskey(req, ctx, input))

/**
 * Deletes one of the signed-in user's passkeys and unlinks its `webauthn` account; resolves it as
 * it was. Refused with `LAST_SIGN_IN_METHOD` when it is the user's last way to sign in (no other
 * passkey, no other linked account of a configured provider, no e-mail address with an e-mail
 * provider configured) unless every passkey provider sets `allowDeletingLastPasskey`. Needs the
 * adapter's `deleteAuthenticator`.
 */
export const deletePasskey = serverFunction("passkeys", (req, ctx, input: { id: string }): Promise<PasskeyInfo> => deleteOwnPasskey(req, ctx, input))
