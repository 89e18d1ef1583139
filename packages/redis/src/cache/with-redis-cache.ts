/**
 * `withRedisCache(adapter, { client })`: the adapter, with session and user look-ups served from
 * Redis (cache-aside; the database stays the source of truth) and every write that could change
 * them invalidating after it.
 */
import type { Adapter, AdapterUser } from "@authlib/core"
import { checkClient, Commands, intOption, type RedisClientLike } from "../client.js"
import { AuthlibRedisError } from "../errors.js"
import { CacheHealth, type RedisCacheLogger } from "./health.js"
import { SessionCache, type Found } from "./session-cache.js"

/** Options of `withRedisCache`. */
export interface RedisCacheOptions {
  /** A connected client the app owns (node-redis `createClient()`, after `connect()`). */
  client: RedisClientLike
  /** Prefix of every key the cache writes. Default `"authlib:c:"`. */
  prefix?: string
  /** Longest life of a cached session or user, in seconds (never past the session's expiry). Default 300. */
  ttl?: number
  /** Longest life of a cached "no such session" or "no such user", in seconds, at most 60. Default 5. */
  negativeTtl?: number
  /** Longest wait for Redis per command, in milliseconds; then the database answers. Default 250. */
  timeoutMs?: number
  /** Receives the cache going away and coming back. Default `console`. */
  logger?: RedisCacheLogger
}

type Method = (...args: never[]) => unknown
type Wrap = (inner: Method, cache: SessionCache) => Method

/** Methods whose answer the cache does not hold and whose writes do not touch it: called as they are. */
const UNCACHED = new Set<string>([
  "getUserByEmail", "getUserByAccount", "linkAccount", "getAccount", "updateAccount", "listAccountsByUserId",
  "createVerificationToken", "useVerificationToken", "useVerificationTokenForAccount", "getVerificationToken", "retireVerificationTokens", "listSessionsByUserId",
  "getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter",
  "deleteAuthenticator", "updateAuthenticator",
  // The two-factor port: its record is never cached, and none of its writes changes a cached user or
  // session (counting a TOTP attempt must not renew the cache: guesses would void it for everyone).
  "getTwoFactor", "setTwoFactorPendingSecret", "enableTwoFactor", "countTwoFactorAttempt", "recordTwoFactorStep",
  "useTwoFactorBackupCode", "resetTwoFactorFailures", "replaceTwoFactorBackupCodes", "deleteTwoFactor",
  // The organizations port: never cached (core reads a membership from the database at each use, so a
  // removed member or a demoted admin acts no more on the next request), and none of its writes
  // changes a cached user or session (so the hot `getOrganizationMember` never renews the cache).
  "createOrganization", "getOrganization", "getOrganizationBySlug", "updateOrganization", "deleteOrganization",
  "listOrganizationsByUserId", "getOrganizationMember", "listOrganizationMembers", "updateOrganizationMemberRole",
  "removeOrganizationMember", "createOrganizationInvitation", "getOrganizationInvitation",
  "getOrganizationInvitationByTokenHash", "listOrganizationInvitations", "revokeOrganizationInvitation",
  "acceptOrganizationInvitation",
  // The SSO port: connections, domains, a join's membership and an IdP-initiated assertion's record
  // are never cached, and none of its writes changes a cached user or session (so every SSO sign-in
  // does not renew the cache for everyone).
  "createSsoConnection", "getSsoConnection", "listSsoConnections", "updateSsoConnection", "deleteSsoConnection",
  "addSsoDomain", "listSsoDomains", "verifySsoDomain", "getVerifiedSsoDomain", "addOrganizationMember", "claimVerificationToken",
])

/** Runs `write`, then (even when it threw: it may have committed) `invalidate`. */
async function afterWrite<T>(write: () => Promise<T>, invalidate: (result: T | undefined) => Promise<void>): Promise<T> {
  let result: T | undefined
  try {
    result = await write()
    return result
  } finally {
    await invalidate(result)
  }
}

/** A write of the session whose hash is the argument at `at` (or its `sessionToken`). */
const sessionWriteAt = (at: number): Wrap => (inner, cache) => async (...args: never[]) => {
  const arg = args[at] as unknown
  const hash = typeof arg === "string" ? arg : (arg as { sessionToken?: unknown } | null)?.sessionToken
  return afterWrite(async () => inner(...args), async () => (typeof hash === "string" ? cache.dropSession(hash) : cache.renew()))
}
const sessionWrite = sessionWriteAt(0)

const userWrite =
  (idOf: (args: unknown[], result: unknown) => unknown): Wrap =>
  (inner, cache) =>
  async (...args: never[]) =>
    afterWrite(async () => inner(...args), async (result) => {
      const id = idOf(args, result)
      return typeof id === "string" ? cache.dropUser(id) : cache.renew()
    })

const byFirstArg = (args: unknown[]) => args[0]
const byUserField = (args: unknown[], result: unknown) => (args[0] as { id?: unknown } | null)?.id ?? (result as { id?: unknown } | null)?.id

/** How each method the cache knows goes through it. */
const WRAPS: Record<string, Wrap> = {
  getSessionAndUser: (inner, cache) => async (...args: never[]) => {
    const hash = args[0] as unknown
    if (typeof hash !== "string") return inner(...args)
    return cache.session(hash, async () => (await inner(...args)) as Found | null)
  },
  getUser: (inner, cache) => async (...args: never[]) => {
    const id = args[0] as unknown
    if (typeof id !== "string") return inner(...args)
    return cache.user<AdapterUser>(id, "user", async () => (await inner(...args)) as AdapterUser | null)
  },
  getUserSessionEpoch: (inner, cache) => async (...args: never[]) => {
    const id = args[0] as unknown
    if (typeof id !== "string") return inner(...args)
    return cache.user<number>(id, "epoch", async () => (await inner(...args)) as number | null)
  },
  createSession: sessionWrite,
  updateSession: sessionWrite,
  deleteSession: sessionWrite,
  extendSession: sessionWrite,
  // (account, session): a new session, whose hash may have been cached as unknown.
  createSessionForAccount: sessionWriteAt(1),
  // (link, account, session): the link used and, for its owner, a new session whose hash may have been cached as unknown.
  useVerificationTokenAndCreateSession: sessionWriteAt(2),
  createUser: userWrite(byUserField),
  updateUser: userWrite(byUserField),
  deleteUser: userWrite(byFirstArg),
  deleteSessionsByUserId: userWrite(byFirstArg),
  incrementUserSessionEpoch: userWrite(byFirstArg),
  // Unlinking changes no cached field today; the user's entry goes all the same (cheap, and safe if it ever does).
  unlinkAccount: userWrite((_args, result) => (result as { userId?: unknown } | null)?.userId),
}

/** The adapter's methods, own and inherited (class adapters), except the constructor. */
function methodNames(adapter: object): string[] {
  const names = new Set<string>()
  for (let o: object | null = adapter; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) if (name !== "constructor") names.add(name)
  }
  return [...names].filter((name) => typeof (adapter as Record<string, unknown>)[name] === "function")
}

/**
 * Puts a Redis cache in front of `adapter` and answers an adapter with exactly its methods.
 *
 * - Cached: `getSessionAndUser` (what every database-session read calls), `getUser` and
 *   `getUserSessionEpoch` (JWT revocation checks). A miss reads the adapter and fills the cache.
 * - Every write that could change them (`createSession`, `createSessionForAccount`,
 *   `useVerificationTokenAndCreateSession`, `updateSession`, `extendSession`,
 *   `deleteSession`, `deleteSessionsByUserId`, `createUser`, `updateUser`, `deleteUser`,
 *   `incrementUserSessionEpoch`, `unlinkAccount`) deletes the entries after the database write,
 *   before it returns: the very next read on any instance goes to the database.
 * - A read that loaded a row before a write cannot store it after: fills are conditional on a lease
 *   taken before the database read, which the writes delete (see `scripts.ts`).
 * - Redis down, slow (`timeoutMs`), flushed, evicting or restarted: the database answers (logged);
 *   after trouble the cache is used again only once a new era voids every older entry.
 * - Other methods are called as they are (the two-factor, organizations and SSO ports among them:
 *   memberships are never cached); a method this release does not know is treated as a write that
 *   may change anything (the cache is renewed after it).
 *
 * @example
 * ```ts
 * import { createClient } from "redis"
 * import { withRedisCache } from "@authlib/redis"
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect()
 * export const authConfig = { adapter: withRedisCache(XataAdapter(pool), { client: redis }), session: { strategy: "database" }, providers: [...] }
 * ```
 */
export function withRedisCache<A extends Adapter>(adapter: A, options: RedisCacheOptions): A {
  if (adapter === null || typeof adapter !== "object") {
    throw new AuthlibRedisError("withRedisCache needs an adapter object", { code: "INVALID_OPTION", cause: { field: "adapter" } })
  }
  const commands = new Commands(checkClient(options?.client, "withRedisCache"), intOption(options.timeoutMs, 250, "timeoutMs", 1, 60_000), true)
  const prefix = options.prefix ?? "authlib:c:"
  if (typeof prefix !== "string") throw new AuthlibRedisError(`"prefix" must be a string`, { code: "INVALID_OPTION", cause: { field: "prefix" } })
  const ttlMs = intOption(options.ttl, 300, "ttl", 1, 86_400) * 1000
  const negativeTtlMs = intOption(options.negativeTtl, 5, "negativeTtl", 1, 60) * 1000
  const logger = options.logger ?? { warn: (code, ...m) => console.warn(`[authlib][warn][${code}]`, ...m), error: (code, ...m) => console.error(`[authlib][error][${code}]`, ...m) }
  const health = new CacheHealth(commands, `${prefix}era`, logger, 500)
  const cache = new SessionCache(commands, health, prefix, { ttlMs, negativeTtlMs, leaseMs: 30_000 })
  const wrapped: Record<string, unknown> = {}
  for (const name of methodNames(adapter)) {
    const inner = ((adapter as unknown as Record<string, Method>)[name] as Method).bind(adapter) as Method
    const wrap = WRAPS[name]
    if (wrap) wrapped[name] = wrap(inner, cache)
    else if (UNCACHED.has(name)) wrapped[name] = inner
    else wrapped[name] = async (...args: never[]) => afterWrite(async () => inner(...args), () => cache.renew())
  }
  return wrapped as A
}
