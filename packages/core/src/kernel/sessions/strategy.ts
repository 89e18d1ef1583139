/**
 * The session-strategy seam: one interface (`types.ts`), a JWT and a database implementation.
 * Routes and the issuer call `sessionStrategy(config)` and never ask which strategy is on; whatever
 * differs between the two (issuing, reading, ending, the principal, replacing) lives behind it, and
 * what the features must know of it is in its `traits`. Only `issuer.ts` calls `issue` and `replace`.
 */
import type { ResolvedConfig } from "../types/resolved-config.js"
import { databaseStrategy } from "./database-strategy.js"
import { jwtStrategy } from "./jwt-strategy.js"
import type { SessionStrategy } from "./types.js"

export type { LinkUse, NewSession, Revocation, SessionChange, SessionStrategy, SessionTraits, SessionUpdate, SignOutMessage } from "./types.js"

const STRATEGIES: Readonly<Record<ResolvedConfig["session"]["strategy"], SessionStrategy>> = {
  jwt: jwtStrategy,
  database: databaseStrategy,
}

/** The strategy the configuration chose (resolved once: `session.strategy` is frozen). */
export function sessionStrategy(config: ResolvedConfig): SessionStrategy {
  return STRATEGIES[config.session.strategy]
}
