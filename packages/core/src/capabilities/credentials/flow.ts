/**
 * Credentials sign-in (spec 5.3): POST callback/:provider runs `authorize(credentials, request)`.
 * null or a thrown `CredentialsSignin` -> back to the sign-in page with `error=CredentialsSignin`
 * and `code`; any other throw is logged in full and shown as a generic `Configuration` error.
 */
import { CredentialsSignin } from "../../kernel/errors/errors.js"
import { userCodeError } from "../../kernel/user-code/run.js"
import { credentialsAttempt } from "./limit.js"
import { normalizeIdentifier } from "../../kernel/rate-limit/limiter.js"
import { identifierPicker } from "./rate-limits.js"
import type { Cookie } from "../../kernel/cookies/serialize.js"
import type { AuthRequest } from "../../kernel/types/http.js"
import type { CredentialsConfig } from "../../kernel/types/providers.js"
import type { User } from "../../kernel/types/config.js"
import type { Flow, FlowContext, FlowOutcome, SignInResult } from "../../kernel/types/sign-in.js"

/** Form fields that belong to authlib, not to the provider's credentials (besides capabilities' `bodyFields`). */
const RESERVED = new Set(["csrfToken", "callbackUrl"])

/** Why a body is refused before `authorize` (logged; the client sees the usual `CredentialsSignin`). */
const refused = (why: string, provider: string) => new CredentialsSignin(why, { cause: { provider } })

/**
 * The body's own fields minus the reserved ones, as own data properties: a `__proto__` field is
 * defined, never assigned, so it cannot set a prototype. Every value must be a string, as a form
 * sends it: a JSON array or object (`"email": ["victim"]`) would be counted as one thing by the
 * limits and read as another by `authorize`, so it never reaches it.
 */
function credentialsOf(body: Readonly<Record<string, unknown>>, provider: string, capabilities: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of Object.keys(body)) {
    if (RESERVED.has(key) || capabilities.has(key)) continue
    const value = body[key]
    if (typeof value !== "string") throw refused(`credential "${key.slice(0, 50)}" is not a string`, provider)
    if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
    else out[key] = value
  }
  return out
}

/** Fields that usually name the account. */
const IDENTIFIER_FIELDS = ["email", "username", "identifier", "login", "user"]

/** Per provider: the declared field that is its identifier (`null`: none declared), or `undefined` when it declares no fields. */
const declaredFields = new WeakMap<CredentialsConfig, string | null | undefined>()

/**
 * The provider's identifier field: the first declared field with a usual name, else the first
 * declared field that is not a password; `null` when it declares only passwords; undefined when
 * it declares no field at all. Only a declared field counts, so a client cannot pick which field
 * the limits look at while `authorize` reads another.
 */
function identifierField(provider: CredentialsConfig): string | null | undefined {
  if (declaredFields.has(provider)) return declaredFields.get(provider)
  const declared = Object.entries(provider.credentials ?? {})
  const usual = declared.find(([field]) => IDENTIFIER_FIELDS.includes(field))
  const other = declared.find(([, input]) => (input as { type?: unknown } | undefined)?.type !== "password")
  const field = declared.length === 0 ? undefined : (usual ?? other)?.[0] ?? null
  declaredFields.set(provider, field)
  return field
}

const nonEmpty = (value: string | undefined) => (value !== undefined && value.trim() !== "" ? value : undefined)

/**
 * What the rate limits count attempts against (undefined: the client's fixed key):
 * `rateLimit.credentials.identifier`, else the provider's identifier field. A provider that
 * declares no field gets the usual fields the body holds, which must then agree: otherwise
 * `authorize` could read one while another was counted.
 */
function identifierOf(provider: CredentialsConfig, credentials: Record<string, string>, pick: ((c: Readonly<Record<string, unknown>>) => string | undefined) | undefined): string | undefined {
  if (pick) {
    const picked = pick(credentials)
    return typeof picked === "string" ? nonEmpty(picked) : undefined
  }
  const field = identifierField(provider)
  if (field !== undefined) return field === null ? undefined : nonEmpty(Object.hasOwn(credentials, field) ? credentials[field] : undefined)
  let found: string | undefined
  for (const name of IDENTIFIER_FIELDS) {
    const value = nonEmpty(Object.hasOwn(credentials, name) ? credentials[name] : undefined)
    if (value === undefined) continue
    if (found !== undefined && normalizeIdentifier(found) !== normalizeIdentifier(value)) throw refused("the identifier fields disagree", provider.id)
    found ??= value
  }
  return found
}

/** What a credentials sign-in carries of its own (`SignInResult.own`): what the user submitted. */
export interface CredentialsSignIn {
  readonly credentials: Record<string, unknown>
}

/** The signed-in user (an id made up when `authorize` gave none) and its `credentials` account. */
function signInResult(provider: CredentialsConfig, authorized: User, credentials: Record<string, unknown>, mark: Cookie | undefined): SignInResult<CredentialsSignIn> {
  const id = authorized.id == null || authorized.id === "" ? crypto.randomUUID() : String(authorized.id)
  const user = { ...authorized, id }
  const account = { provider: provider.id, providerAccountId: id, type: "credentials" as const }
  // Two literals rather than a spread of `{ cookies }`: a spread that adds a key takes V8's slow path (see bench/README.md).
  return mark ? { user, account, own: { credentials }, cookies: [mark] } : { user, account, own: { credentials } }
}

export const credentialsFlow: Flow<CredentialsConfig> = {
  callbackMethods: ["POST"],
  callbackCsrf: true,
  async callback(req: AuthRequest, ctx: FlowContext<CredentialsConfig>): Promise<FlowOutcome> {
    const credentials = credentialsOf(req.body, ctx.provider.id, ctx.config.registry.bodyFields)
    const limits = ctx.config.rateLimit
    // Synchronous with the memory store: no await on the common path (see rate-limit/limiter.ts).
    let attempt = credentialsAttempt(req, ctx, limits ? identifierOf(ctx.provider, credentials, identifierPicker(limits)) : undefined)
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
    return { signIn: signInResult(ctx.provider, authorized, credentials, attempt.markCookie()) }
  },
}
