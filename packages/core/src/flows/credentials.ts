/**
 * Credentials sign-in (spec 5.3): POST callback/:provider runs `authorize(credentials, request)`.
 * null or a thrown `CredentialsSignin` -> back to the sign-in page with `error=CredentialsSignin`
 * and `code`; any other throw is logged in full and shown as a generic `Configuration` error.
 */
import { CredentialsSignin } from "../errors.js"
import { userCodeError } from "../user-code.js"
import { credentialsAttempt } from "../rate-limit/limiter.js"
import type { AuthRequest } from "../http/types.js"
import type { CredentialsConfig } from "../providers/types.js"
import type { User } from "../types.js"
import type { Flow, FlowContext, FlowOutcome, SignInResult } from "./types.js"

/** Form fields that belong to authlib, not to the provider's credentials. */
const RESERVED = new Set(["csrfToken", "callbackUrl"])

/**
 * The body's own fields minus the reserved ones, as own data properties: a `__proto__` field is
 * defined, never assigned, so it cannot set a prototype.
 */
function credentialsOf(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(body)) {
    if (RESERVED.has(key)) continue
    if (key === "__proto__") Object.defineProperty(out, key, { value: body[key], enumerable: true, writable: true, configurable: true })
    else out[key] = body[key]
  }
  return out
}

/** Fields that usually name the account, in the order they are tried. */
const IDENTIFIER_FIELDS = ["email", "username", "identifier", "login", "user"]

/**
 * What the rate limits count attempts against: `rateLimit.credentials.identifier`, else the first
 * non-empty string of the usual fields, else of the first declared field that is not a password.
 */
function identifierOf(provider: CredentialsConfig, credentials: Record<string, unknown>, pick: ((c: Readonly<Record<string, unknown>>) => string | undefined) | undefined): string | undefined {
  if (pick) {
    const picked = pick(credentials)
    return typeof picked === "string" ? picked : undefined
  }
  for (const field of IDENTIFIER_FIELDS) {
    const value = Object.hasOwn(credentials, field) ? credentials[field] : undefined
    if (typeof value === "string" && value.trim() !== "") return value
  }
  for (const [field, input] of Object.entries(provider.credentials ?? {})) {
    if ((input as { type?: unknown } | undefined)?.type === "password") continue
    const value = Object.hasOwn(credentials, field) ? credentials[field] : undefined
    if (typeof value === "string" && value.trim() !== "") return value
  }
  return undefined
}

/** The signed-in user (an id made up when `authorize` gave none) and its `credentials` account. */
function signInResult(provider: CredentialsConfig, authorized: User, credentials: Record<string, unknown>): SignInResult {
  const id = authorized.id == null || authorized.id === "" ? crypto.randomUUID() : String(authorized.id)
  return {
    user: { ...authorized, id },
    account: { provider: provider.id, providerAccountId: id, type: "credentials" },
    credentials,
  }
}

export const credentialsFlow: Flow<CredentialsConfig> = {
  callbackMethods: ["POST"],
  callbackCsrf: true,
  async callback(req: AuthRequest, ctx: FlowContext<CredentialsConfig>): Promise<FlowOutcome> {
    const credentials = credentialsOf(req.body)
    const limits = ctx.config.rateLimit
    // Synchronous with the memory store: no await on the common path (see rate-limit/limiter.ts).
    let attempt = credentialsAttempt(req, ctx, limits ? identifierOf(ctx.provider, credentials, limits.identifierOf) : undefined)
    if (attempt instanceof Promise) attempt = await attempt
    let authorized: User | null
    try {
      // The incoming Request itself (headers, URL, method); its body was read into `credentials`.
      // Rebuilding a Request with the body again costs ~25 us per sign-in for a rarely used stream.
      authorized = await ctx.provider.authorize(credentials as never, req.request)
    } catch (err) {
      await attempt.failed()
      // Client-safe errors (CredentialsSignin) pass; the rest is a logged fault (user-code.ts).
      throw userCodeError("authorize", ctx.provider.id, err)
    }
    if (!authorized || typeof authorized !== "object") {
      await attempt.failed()
      throw new CredentialsSignin("authorize returned no user", { cause: { provider: ctx.provider.id } })
    }
    const forgotten = attempt.succeeded()
    if (forgotten) await forgotten
    return { signIn: signInResult(ctx.provider, authorized, credentials) }
  },
}
