/**
 * Credentials sign-in (spec 5.3): POST callback/:provider runs `authorize(credentials, request)`.
 * null or a thrown `CredentialsSignin` -> back to the sign-in page with `error=CredentialsSignin`
 * and `code`; any other throw is logged in full and shown as a generic `Configuration` error.
 */
import { CredentialsSignin } from "../errors.js"
import { userCodeError } from "../user-code.js"
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
    let authorized: User | null
    try {
      // The incoming Request itself (headers, URL, method); its body was read into `credentials`.
      // Rebuilding a Request with the body again costs ~25 us per sign-in for a rarely used stream.
      authorized = await ctx.provider.authorize(credentials as never, req.request)
    } catch (err) {
      // Client-safe errors (CredentialsSignin) pass; the rest is a logged fault (user-code.ts).
      throw userCodeError("authorize", ctx.provider.id, err)
    }
    if (!authorized || typeof authorized !== "object") throw new CredentialsSignin("authorize returned no user", { cause: { provider: ctx.provider.id } })
    return { signIn: signInResult(ctx.provider, authorized, credentials) }
  },
}
