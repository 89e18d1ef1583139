/**
 * Linked accounts and ways in: the server functions that list a user's ways to sign in and unlink
 * an account (`functions.ts`), on one definition of a way in (`ways-in.ts`). No routes of its own;
 * its error type, `AccountManagementError`, is declared in `errors.ts`.
 */
import type { Capability } from "../../kernel/types/capability.js"
import { linkedAccountsErrors } from "./errors.js"
import { listLinkedAccounts, listSignInMethods, unlinkLinkedAccount } from "./functions.js"

export const linkedAccounts: Capability = { name: "linked-accounts", errors: linkedAccountsErrors }

// The one definition of a way in, which passkey management also keeps whole.
export { hasWayIn, removeWayIn } from "./ways-in.js"

/** Its server functions, by name. */
export const linkedAccountsFunctions = { listLinkedAccounts, listSignInMethods, unlinkLinkedAccount }
