/**
 * A user's ways in: what can really sign them in with this configuration. One enumeration for the
 * list users see (`listSignInMethods`), for what may be removed, and for the "last way in" rule:
 * - a linked account of a configured OAuth/OIDC provider (an IdP): unlinked with `unlinkLinkedAccount`;
 * - a password: a `credentials` account of a configured credentials provider (the password itself is
 *   the app's: it is never "unlinked" here); for the list the user sees, also the password the
 *   request's own session began with (`pwd` in its `amr`; under JWT sessions no credentials account
 *   is stored), when exactly one credentials provider is configured: that provider's `authorize`
 *   accepted this user, so it really signs them in. With several, the session cannot say which one
 *   did, and none is listed from it;
 * - passkeys (the user's authenticators, while a passkey provider is configured): deleted one by one;
 * - an e-mail link: an e-mail provider is configured and the user's address is verified (an address
 *   nobody proved is no way in: the link would go to whoever typed it).
 *
 * Removing a way in is a check, the write, then the check again: when two removals race and the
 * second check finds nothing left, what this call removed is put back and the call is refused. Of
 * concurrent removals at least one way in always remains.
 */
import type { AdapterAccount, AdapterAuthenticator } from "../../kernel/types/adapters.js"
import type { Context } from "../../kernel/types/http.js"
import { logError } from "../../kernel/errors/logger.js"

/** One way the user can sign in, as `listSignInMethods` shows it. */
export interface SignInMethod {
  /** `idp`: an OAuth/OIDC account; `password`: a credentials provider; `passkey`: the user's passkeys; `email`: links to a verified address. */
  kind: "idp" | "password" | "passkey" | "email"
  /** The provider's id and display name. */
  provider: string
  name: string
  /** How many (passkeys; 1 otherwise). */
  count: number
  /**
   * How it is removed: `"unlink"` with `unlinkLinkedAccount`, `"delete-passkeys"` with `deletePasskey`
   * for each, `null` when it is not removed here (a password is the app's; an address stays with the user).
   */
  removal: "unlink" | "delete-passkeys" | null
}

/** What the caller already knows will remain; what it does not say is read from the adapter. */
export interface Remaining {
  accounts?: readonly AdapterAccount[] | undefined
  passkeys?: readonly AdapterAuthenticator[] | undefined
}

/** The method an account is, or undefined when it does not sign in with this configuration. */
function accountMethod(ctx: Context, account: AdapterAccount): SignInMethod | undefined {
  const provider = ctx.config.providerById.get(account.provider)
  if (!provider) return undefined
  const named = { provider: provider.id, name: provider.name, count: 1 }
  if (account.type === "credentials" && provider.type === "credentials") return { kind: "password", ...named, removal: null }
  if ((account.type === "oauth" || account.type === "oidc") && (provider.type === "oauth" || provider.type === "oidc")) return { kind: "idp", ...named, removal: "unlink" }
  return undefined
}

/**
 * The password the request's session began with, where no stored account says so: `pwd` (the first
 * factor of a credentials sign-in, `sign-in/amr.ts`) in the session's `amr`, and the one credentials
 * provider configured.
 */
function sessionPasswordMethod(ctx: Context, session: SessionFacts | undefined): SignInMethod | undefined {
  if (!session?.amr.includes("pwd")) return undefined
  const passwords = ctx.config.providers.filter((p) => p.type === "credentials")
  const provider = passwords.length === 1 ? passwords[0]! : undefined
  return provider && { kind: "password", provider: provider.id, name: provider.name, count: 1, removal: null }
}

async function passkeyMethod(ctx: Context, userId: string, known: readonly AdapterAuthenticator[] | undefined): Promise<SignInMethod | undefined> {
  const provider = ctx.config.providers.find((p) => p.type === "webauthn")
  const list = ctx.config.adapter?.listAuthenticatorsByUserId
  if (!provider) return undefined
  const count = (known ?? (list ? await list(userId) : [])).length
  return count > 0 ? { kind: "passkey", provider: provider.id, name: provider.name, count, removal: "delete-passkeys" } : undefined
}

async function emailMethod(ctx: Context, userId: string): Promise<SignInMethod | undefined> {
  const provider = ctx.config.providers.find((p) => p.type === "email")
  const getUser = ctx.config.adapter?.getUser
  if (!provider || !getUser) return undefined
  const user = await getUser(userId)
  const verified = typeof user?.email === "string" && user.email !== "" && user.emailVerified != null
  return verified ? { kind: "email", provider: provider.id, name: provider.name, count: 1, removal: null } : undefined
}

/** How the user's own session signed in (the request's principal), for the list the user sees. */
export interface SessionFacts {
  amr: readonly string[]
}

/**
 * The user's ways in, one entry per provider. Without `listAccountsByUserId` linked accounts cannot
 * be seen, so the list errs towards short (a removal is refused more often, never wrongly allowed).
 * `session` (the user's own, listing their ways in) adds the password it began with; removals do
 * not pass it, so they still count only what is stored.
 */
export async function signInMethods(ctx: Context, userId: string, remaining: Remaining = {}, session?: SessionFacts): Promise<SignInMethod[]> {
  const list = ctx.config.adapter?.listAccountsByUserId
  const accounts = remaining.accounts ?? (list ? await list(userId) : [])
  const out = new Map<string, SignInMethod>()
  for (const account of accounts) {
    const method = accountMethod(ctx, account)
    if (method && !out.has(method.provider)) out.set(method.provider, method)
  }
  const password = sessionPasswordMethod(ctx, session)
  if (password && !out.has(password.provider)) out.set(password.provider, password)
  for (const method of [await passkeyMethod(ctx, userId, remaining.passkeys), await emailMethod(ctx, userId)]) if (method) out.set(method.provider, method)
  return [...out.values()]
}

/** Whether the user keeps a way in (see {@link signInMethods}). */
export async function hasWayIn(ctx: Context, userId: string, remaining: Remaining = {}): Promise<boolean> {
  return (await signInMethods(ctx, userId, remaining)).length > 0
}

/** What a removal did, and how to undo it if it turns out to have been the last way in. */
export interface Removal<T> {
  value: T
  restore(): Promise<unknown>
}

/**
 * Runs `remove`, then checks that the user still has a way in; when not, restores what it removed
 * and throws `refusal()`. A failing restore is logged (the refusal still goes out).
 */
export async function removeWayIn<T>(ctx: Context, userId: string, remove: () => Promise<Removal<T>>, refusal: () => Error): Promise<T> {
  const removal = await remove()
  if (await hasWayIn(ctx, userId)) return removal.value
  try {
    await removal.restore()
  } catch (err) {
    logError(ctx.config.logger, err)
  }
  throw refusal()
}
