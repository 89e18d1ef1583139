/**
 * The one issuer: every session starts or is replaced here, and nowhere else calls the strategy's
 * `issue` or `replace` (`test/kernel/sign-in/single-issuer.test.ts` walks the TypeScript program's
 * references to both and allows this function only). Callers: a sign-in's end (`sign-in/complete.ts`),
 * its fast paths (`sign-in/issue.ts`'s account look-up, the e-mail link's use, a passkey's counter), and the features
 * that change a live session (step-up, provider tokens, revoking the other sessions).
 */
import type { AuthRequest, Context, Cookie } from "../types/http.js"
import { sessionStrategy } from "./strategy.js"
import type { Issuance, Issued, SessionChange } from "./types.js"

/** A new session (see `Issuance`), or the request's session replaced with a change (`null`: it has none that may act). */
export type Issue = Issuance | { readonly kind: "replace"; readonly change: SessionChange }

type Answer<I extends Issue> = I extends Issuance ? Issued[I["kind"]] : Cookie[] | null

/**
 * Issues what `what` asks for. Returns the strategy's promise as it is (no `async`): sign-in is a
 * benchmarked hot path, and this adds no step to it.
 */
export function issue<I extends Issue>(req: AuthRequest, ctx: Context, what: I): Promise<Answer<I>> {
  const strategy = sessionStrategy(ctx.config)
  const answer = what.kind === "replace" ? strategy.replace(req, ctx, what.change) : strategy.issue(req, ctx, what as Issuance)
  return answer as Promise<Answer<I>>
}
