/**
 * The capability's part of the account pre-hijacking clean-up: a squatter who came in without the
 * address (an IdP that does not verify it) and enrolled TOTP would otherwise keep the account once
 * its owner proves the address: the owner would be held for the squatter's code and could not turn
 * it off. So the proof removes every second factor enrolled before it: the TOTP secret, confirmed or
 * not, and the backup codes (one record, one delete). Asked whether or not `twoFactor` is set now:
 * a record kept from when it was would come back into force with the option.
 */
import type { Context } from "../../kernel/types/http.js"
import { optionalTwoFactorStore } from "./store.js"

/** Deletes the user's two-factor record, if any; answers what went, for the clean-up's log. */
export async function removeSecondFactors(ctx: Context, userId: string): Promise<Record<string, unknown> | undefined> {
  const store = optionalTwoFactorStore(ctx)
  const record = store && (await store.getTwoFactor(userId))
  if (!store || !record) return undefined
  await store.deleteTwoFactor(userId)
  return { twoFactor: record.enabled ? "enabled" : "enrolling" }
}
