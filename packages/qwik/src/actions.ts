/**
 * `useSignIn` and `useSignOut`: Qwik City global actions, validated with `zod$` on exactly the
 * input fields of spec section 4. Invalid input never reaches core: Qwik answers 400 with
 * `{ failed: true, fieldErrors, formErrors }`.
 */
import { InvalidProvider, InvalidRequest, RateLimited } from "@authlib/core"
import type { QRL } from "@builder.io/qwik"
import { globalAction$, z, zod$, type RequestEventAction } from "@builder.io/qwik-city"
import { authContext } from "./context.js"
import type { QwikAuthConfigFn } from "./env.js"
import { runSignIn } from "./sign-in.js"
import { runSignOut } from "./sign-out.js"

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
