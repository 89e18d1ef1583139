/**
 * The adapter's two-factor port as one typed handle: every method present, or `MissingAdapterMethods`
 * naming the missing ones (made in `ports/ports.ts`, the one place). The routes and server
 * functions of two-factor sign-in take their storage from here.
 */
import { optionalPort, port, type PortMethods } from "../../kernel/ports/ports.js"
import type { Context } from "../../kernel/types/http.js"

/** The two-factor port: the methods of `TWO_FACTOR_PORT` (`adapter.ts`), all present. */
export type TwoFactorStore = PortMethods<"twoFactor">

/** Only the configuration is read, so server functions without a request can call it too. */
type HasConfig = Pick<Context, "config">

/** The two-factor port of the configured adapter, or `MissingAdapterMethods` ("Two-factor sign-in needs an adapter with ..."). */
export function twoFactorStore(ctx: HasConfig): TwoFactorStore {
  return port(ctx.config, "twoFactor", "Two-factor sign-in")
}

/** The two-factor port when the adapter has it, else undefined (a user of such an adapter has no second factor). */
export function optionalTwoFactorStore(ctx: HasConfig): TwoFactorStore | undefined {
  return optionalPort(ctx.config, "twoFactor")
}
