/**
 * The capability's answer to the kernel's step-up gate (`requireFreshSecondFactor`, which guards
 * adding or deleting a passkey and unlinking an account): a user with two factors enabled needs a
 * second factor verified within `twoFactor.freshAge`; anyone else, nothing.
 */
import type { Context } from "../../kernel/types/http.js"
import { optionalTwoFactorStore } from "./store.js"

/** `twoFactor.freshAge` when the user has two factors on (configured, and their record enabled), else null. */
export async function twoFactorFreshness(ctx: Context, userId: string): Promise<number | null> {
  const options = ctx.config.twoFactor
  const store = options && optionalTwoFactorStore(ctx)
  if (!options || !store) return null
  return (await store.getTwoFactor(userId))?.enabled === true ? options.freshAge : null
}
