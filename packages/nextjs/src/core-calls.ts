/**
 * The in-process calls the server-side `signIn`, `signOut` and `unstable_update` make before their
 * own: the CSRF token (core's double-submit check then runs in full on the POST that follows) and
 * the provider's type. An answer that lacks what the caller needs becomes an error, never a
 * fallback: a refused sign-in must not redirect as if it had succeeded.
 */
import { Configuration, ERROR_CODES, InvalidRequest, RateLimited, type AuthError, type ProviderType } from "@authlib/core"
import { coreCall } from "./internal-request.js"
import type { RequestScope } from "./scope.js"

/**
 * The error for an answer without the expected result: core's rate-limit refusal as `RateLimited`,
 * a request core refused as malformed (a 4xx `InvalidRequest`: a body over 64 KiB) as that, with
 * core's status and code; anything else is a server fault (`Configuration`).
 */
export function failedCall(what: string, status: number | undefined, body: unknown): AuthError {
  const refused = body as { error?: unknown; code?: unknown; message?: unknown; retryAfter?: unknown } | null | undefined
  if (refused?.error === "RateLimited") {
    const code = refused.code === "STORE_UNAVAILABLE" ? "STORE_UNAVAILABLE" : "LIMIT_REACHED"
    return new RateLimited(`${what} was refused: too many attempts`, { code, retryAfter: typeof refused.retryAfter === "number" ? refused.retryAfter : 60 })
  }
  if (status !== undefined && status >= 400 && status < 500 && refused?.error === "InvalidRequest") {
    // Only a code of the catalogue is passed on: the body came back through an HTTP-shaped answer.
    const code = ERROR_CODES.InvalidRequest.find((c) => c === refused.code) ?? "REQUEST_INVALID"
    return new InvalidRequest(typeof refused.message === "string" ? refused.message : `${what} was refused as malformed`, { code, status })
  }
  return new Configuration(`${what} answered ${status ?? "no status"} without the expected result`, { code: "INTERNAL_CALL_FAILED", cause: { status, body } })
}

async function getJson(scope: RequestScope, action: string): Promise<unknown> {
  const result = await coreCall(scope, action)
  if ((result.status ?? 200) !== 200) throw failedCall(`GET ${scope.basePath}/${action}`, result.status, result.json)
  return result.json
}

/** The CSRF token for a POST to core, from core (GET /csrf); the jar carries its cookie to the POST. */
export async function csrfToken(scope: RequestScope): Promise<string> {
  const body = (await getJson(scope, "csrf")) as { csrfToken?: unknown } | null
  if (typeof body?.csrfToken !== "string") throw new Configuration("GET /csrf answered no csrfToken", { code: "INTERNAL_CALL_FAILED" })
  return body.csrfToken
}

/** The type of provider `id` as core sees it (GET /providers), or undefined for an unknown id. */
export async function providerType(scope: RequestScope, id: string): Promise<ProviderType | undefined> {
  const providers = (await getJson(scope, "providers")) as Record<string, { type?: ProviderType }> | null
  return providers && Object.hasOwn(providers, id) ? providers[id]?.type : undefined
}
