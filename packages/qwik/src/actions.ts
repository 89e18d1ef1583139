/**
 * `useSignIn` and `useSignOut`: Qwik City global actions, validated with `zod$` on exactly the
 * input fields of spec section 4. Invalid input never reaches core: Qwik answers 400 with
 * `{ failed: true, fieldErrors, formErrors }`. `useTwoFactorSignIn`: the second step of a pending
 * sign-in on the app's own `pages.twoFactor` page, in the same failure shape.
 */
import { InvalidProvider, InvalidRequest, RateLimited, TwoFactorError, WebAuthnVerificationError } from "@authlib/core"
import type { QRL } from "@builder.io/qwik"
import { globalAction$, z, zod$, type RequestEventAction } from "@builder.io/qwik-city"
import { authContext } from "./context.js"
import type { QwikAuthConfigFn } from "./env.js"
import { runSignIn } from "./sign-in.js"
import { runSignOut } from "./sign-out.js"
import { completeTwoFactorSignIn, completeTwoFactorSignInWithPasskey } from "./server-functions.js"

/**
 * `options` is checked as one field (any keys, `redirectTo` a string when present), so every error
 * is reported under one of the four spec keys rather than a nested path.
 */
const signInShape = {
  providerId: z.string().optional(),
  redirectTo: z.string().optional(),
  options: z
    .record(z.string(), z.unknown())
    .refine((o) => o.redirectTo === undefined || typeof o.redirectTo === "string", {
      message: '"options.redirectTo" must be a string',
    })
    .optional(),
  authorizationParams: z.union([z.string(), z.instanceof(URLSearchParams), z.record(z.string(), z.string())]).optional(),
}

const signOutShape = {
  redirectTo: z.string().optional(),
}

/** A code (TOTP or backup), or a passkey's assertion JSON (`data`, with `provider` optionally): one of the two. */
const twoFactorShape = z
  .object({ code: z.string().max(64).optional(), data: z.string().max(16_384).optional(), provider: z.string().max(100).optional() })
  .refine((i) => (i.code === undefined) !== (i.data === undefined), { message: 'Send either "code" or "data"', path: ["code"] })

/**
 * The one builder of the binding's failure shape (`{ failed: true, fieldErrors, formErrors }`,
 * as `zod$` answers invalid input), for the failures the actions recognise:
 * - an id no provider has: invalid input (a form field can say anything), under `providerId`;
 * - input core refused as malformed (a form over 64 KiB, headers over 16 KiB): invalid input as
 *   much as a wrong type, with core's status (413, 431, 400), not a 500;
 * - too many attempts (`RateLimited`): 429 (503 when the store failed) with `Retry-After` and a
 *   sentence saying when to try again in `formErrors`.
 * Anything else is rethrown.
 */
function failure(ev: RequestEventAction, err: unknown) {
  if (err instanceof InvalidProvider && err.code === "UNKNOWN_PROVIDER")
    return ev.fail(400, { fieldErrors: { providerId: err.message } as Record<string, string>, formErrors: [] as string[] })
  if (err instanceof InvalidRequest) return ev.fail(err.status, { fieldErrors: {} as Record<string, string>, formErrors: [err.message] })
  // A refused second factor: the code field says why (the same words for a wrong, reused or spent code).
  if (err instanceof TwoFactorError || err instanceof WebAuthnVerificationError) {
    const status = err instanceof TwoFactorError ? err.status : 400
    return ev.fail(status, { fieldErrors: { code: err.message } as Record<string, string>, formErrors: [] as string[], code: err.code })
  }
  if (err instanceof RateLimited) {
    ev.headers.set("Retry-After", String(err.retryAfter))
    return ev.fail(err.status, { fieldErrors: {} as Record<string, string>, formErrors: [rateLimitedMessage(err)] })
  }
  throw err
}

/** The sentence a sign-in form shows for a rate-limit refusal. */
export function rateLimitedMessage(err: RateLimited): string {
  if (err.code === "STORE_UNAVAILABLE") return "Signing in is unavailable right now. Please try again in a minute."
  const wait = err.retryAfter < 90 ? `${err.retryAfter} seconds` : `about ${Math.ceil(err.retryAfter / 60)} minutes`
  return `Too many attempts. Please try again in ${wait}.`
}

/** Builds `useSignIn` for the configuration function given to `QwikAuth$`. */
export function createUseSignIn(configQrl: QRL<QwikAuthConfigFn>) {
  return globalAction$(async (input, ev) => {
    const ctx = await authContext(ev, configQrl)
    try {
      return await runSignIn(ev, ctx, {
        ...input,
        ...(input.options ? { options: input.options as { redirectTo?: string } } : {}),
      })
    } catch (err) {
      return failure(ev, err)
    }
  }, zod$(signInShape))
}

/** Builds `useSignOut` for the configuration function given to `QwikAuth$`. */
export function createUseSignOut(configQrl: QRL<QwikAuthConfigFn>) {
  return globalAction$(async (input, ev) => {
    try {
      return await runSignOut(ev, await authContext(ev, configQrl), input)
    } catch (err) {
      return failure(ev, err)
    }
  }, zod$(signOutShape))
}

/**
 * Builds `useTwoFactorSignIn` for the configuration function given to `QwikAuth$`: completes the
 * pending sign-in with `code` (or a passkey's `data`) and redirects to its callback URL with the
 * session set; a refusal is `{ failed: true, fieldErrors: { code }, formErrors, code }` (core's
 * `TwoFactorError` / `WebAuthnVerificationError` code, e.g. `CODE_INVALID`, `SIGN_IN_MISSING`).
 */
export function createUseTwoFactorSignIn(configQrl: QRL<QwikAuthConfigFn>) {
  return globalAction$(async (input, ev) => {
    await authContext(ev, configQrl)
    try {
      if (input.data !== undefined) return await completeTwoFactorSignInWithPasskey(ev, { data: input.data, ...(input.provider ? { provider: input.provider } : {}) })
      return await completeTwoFactorSignIn(ev, { code: input.code ?? "" })
    } catch (err) {
      return failure(ev, err)
    }
  }, zod$(twoFactorShape))
}
