/**
 * Credentials sign-in (spec 5.3): POST callback/:provider runs `authorize(credentials, request)`.
 * null or a thrown `CredentialsSignin` -> back to the sign-in page with `error=CredentialsSignin`
 * and `code`; any other throw is logged in full and shown as a generic `Configuration` error.
 */
import { AuthError, CallbackRouteError, CredentialsSignin } from "../errors.js"
import type { AuthRequest } from "../http/types.js"
import type { CredentialsConfig } from "../providers/types.js"
import type { User } from "../types.js"
import type { Flow, FlowContext, FlowOutcome } from "./types.js"

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

async function authorize(provider: CredentialsConfig, credentials: Record<string, unknown>, req: AuthRequest): Promise<User> {
  let user: User | null
  try {
    // The incoming Request itself (headers, URL, method); its body was read into `credentials`.
    // Rebuilding a Request with the body again costs ~25 us per sign-in for a rarely used stream.
    user = await provider.authorize(credentials as never, req.request)
  } catch (err) {
    if (err instanceof CredentialsSignin) throw err
    if (err instanceof AuthError && (err.constructor as typeof AuthError).clientSafe) throw err
    throw new CallbackRouteError(`"authorize" of provider "${provider.id}" threw`, {
      code: "AUTHORIZE_THREW",
      cause: { provider: provider.id, ...(err instanceof Error ? { err } : { thrown: String(err) }) },
    })
  }
  if (!user || typeof user !== "object") throw new CredentialsSignin("authorize returned no user", { cause: { provider: provider.id } })
  return user
}

export const credentialsFlow: Flow<CredentialsConfig> = {
  callbackMethods: ["POST"],
  callbackCsrf: true,
  async callback(req: AuthRequest, ctx: FlowContext<CredentialsConfig>): Promise<FlowOutcome> {
    const credentials = credentialsOf(req.body)
    const authorized = await authorize(ctx.provider, credentials, req)
    const id = authorized.id == null || authorized.id === "" ? crypto.randomUUID() : String(authorized.id)
    const user: User = { ...authorized, id }
    return {
      signIn: {
        user,
        account: { provider: ctx.provider.id, providerAccountId: id, type: "credentials" },
        credentials,
      },
    }
  },
}
