/**
 * The limits of a credentials sign-in, before and after `authorize`. Which counter an attempt
 * for an identifier uses (OWASP's brute-force guidance):
 *
 * - with a valid device mark for the identifier (device-mark.ts): the mark's own counter only, so
 *   guessing from elsewhere never keeps out a browser the user has signed in with;
 * - otherwise: the counter of the identifier on the client's network (IPv4 /24, IPv6 /64), and the
 *   identifier's total across networks at twice each limit. One network alone cannot use up the
 *   total, so a new browser on another network still gets in; many networks together get at most
 *   twice the limit;
 * - without an identifier: a fixed counter per client, never none.
 *
 * A success clears its own counter and the identifier's total (successful sign-ins never count),
 * not the counters of other networks, where someone else may be guessing.
 * Failures also count per client (across identifiers). Synchronous with a synchronous store.
 *
 * Round trips: the client's read and the identifier's counters go to the store in one call
 * (`RateLimitStore.hitEach`), the success's resets in one more (`resetEach`): two per sign-in on a
 * store that has them, whatever the number of rules.
 */
import { RateLimited } from "../../kernel/errors/errors.js"
import type { Cookie } from "../../kernel/cookies/serialize.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import { logError } from "../../kernel/errors/logger.js"
import { networkOfKey } from "../../kernel/rate-limit/client-address.js"
import { deviceMarkCookie, verifiedDeviceMark } from "./device-mark.js"
import { deviceMarkCookieName } from "../../kernel/cookies/names.js"
import { clientOf, count, countEach, isThenable, normalizeIdentifier, type CountedStep } from "../../kernel/rate-limit/limiter.js"
import { resetEach } from "../../kernel/rate-limit/steps.js"
import { identifierTotals } from "./rate-limits.js"
import type { RateLimitGroup, ResolvedRateLimit, ResolvedRule } from "../../kernel/rate-limit/options.js"

/** What a credentials sign-in reports back once `authorize` has answered. */
export interface CredentialsAttempt {
  /** `authorize` refused: the client's failures grow. */
  failed(): Promise<void>
  /** Signed in: this counter's attempts are forgotten (synchronous with a synchronous store). */
  succeeded(): void | Promise<void>
  /** Signed in: a fresh device mark for the identifier, when there is one to bind it to. */
  markCookie(): Cookie | undefined
}

/** One attempt's counters (a class: no closures allocated per sign-in). */
class Attempt implements CredentialsAttempt {
  constructor(
    readonly ctx: Context,
    /** The client's key, when per-client failures are limited. */
    readonly client: string | undefined,
    /** The normalised identifier; undefined without one. */
    readonly id: string | undefined,
    /** Whether a success sets a (new) device mark: not while the browser holds a fresh one. */
    readonly mark: boolean,
    /** The counters it counts and forgets (its per-identifier counter among them); undefined when the limits count nothing for it. */
    readonly plan: AttemptPlan | undefined,
  ) {}

  async failed(): Promise<void> {
    if (this.client === undefined) return
    try {
      await count(this.ctx, "credentials.perClient", this.client, 1)
    } catch (err) {
      // The attempt has been answered already; a limit reached here applies to the next one.
      if (!(err instanceof RateLimited)) logError(this.ctx.config.logger, err)
    }
  }

  succeeded(): void | Promise<void> {
    // The identifier's total goes too: successful sign-ins never count against it (an app that
    // signs in often would otherwise find it full). Other networks' counters stay.
    // Without per-identifier limits the plan forgets nothing.
    const keys = this.plan?.forget
    if (!keys || keys.length === 0) return
    let done: void | PromiseLike<void>
    try {
      done = resetEach(this.ctx.config.rateLimit!.store, keys)
    } catch (err) {
      return logError(this.ctx.config.logger, err)
    }
    // A store failure is logged, never fatal: the sign-in has succeeded and the counts expire.
    if (isThenable(done)) return Promise.resolve(done).catch((err: unknown) => logError(this.ctx.config.logger, err))
  }

  markCookie(): Cookie | undefined {
    if (!this.mark || this.id === undefined) return undefined
    return deviceMarkCookie(this.id, this.ctx.config.secret[0]!, this.ctx.secure, Date.now())
  }
}

const NOTHING: CredentialsAttempt = { failed: async () => {}, succeeded: () => {}, markCookie: () => undefined }

/** The counter keys of `value` under each of `rules`, appended to `into`. */
function keysOf(rules: readonly ResolvedRule[], value: string, into: string[]): string[] {
  for (let i = 0; i < rules.length; i++) into.push(rules[i]!.prefix + value)
  return into
}

/** Appends a step per rule of `rules` for `value` to `into`. */
function stepsOf(group: RateLimitGroup, rules: readonly ResolvedRule[], value: string, cost: number, into: CountedStep[]): void {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!
    into.push({ key: rule.prefix + value, windowMs: rule.windowMs, cost, limit: rule.limit, group })
  }
}

/** The counters of one kind of attempt (a client and identifier, or a device mark and identifier): made once, reused. */
interface AttemptPlan {
  /** What the attempt counts, in order (the client's read, the identifier's counter, its total). */
  readonly steps: readonly CountedStep[]
  /** What a success forgets: the identifier's counter and its total. */
  readonly forget: readonly string[]
}

/** The three kinds of attempt a plan is made for (see `attemptOf`). */
type PlanKind = "client" | "mark" | "net"

/**
 * Plans per resolved limits, by kind, then by client (or mark) and identifier, in nested maps: the
 * look-up uses the strings the request already holds (the client's key comes from a cache, so its
 * hash is kept), and the plan's keys are built only when it is made. Reusing the same key strings
 * also keeps a sign-in from hashing nine keys each time (the store's maps hash a string once).
 * Bounded, emptied when full, like the device marks' table.
 */
interface PlanTable {
  size: number
  readonly byKind: Record<PlanKind, Map<string, Map<string, AttemptPlan>>>
  /**
   * By peer address, then by the identifier as submitted: its normalised form, the client's key
   * and the plan of an attempt without a device mark. Only where the client's key is the peer's
   * alone (no trusted proxies): the same peer and text then always resolve the same way.
   */
  readonly byPeer: Map<string, Map<string, Resolved>>
}

/** An identifier as submitted from one peer, resolved (see `PlanTable.byPeer`). */
interface Resolved {
  readonly id: string
  /** The client's key (always one when kept in `byPeer`). */
  readonly client: string | undefined
  readonly plan: AttemptPlan
}
const plans = new WeakMap<ResolvedRateLimit, PlanTable>()
const PLANS_MAX = 4096

function tableOf(limits: ResolvedRateLimit): PlanTable {
  let table = plans.get(limits)
  if (!table) plans.set(limits, (table = { size: 0, byKind: { client: new Map(), mark: new Map(), net: new Map() }, byPeer: new Map() }))
  return table
}

function cachedPlan(table: PlanTable, kind: PlanKind, outer: string, inner: string): AttemptPlan | undefined {
  return table.byKind[kind].get(outer)?.get(inner)
}

/** Empties `table` once it holds `PLANS_MAX` entries, so memory stays bounded whatever comes. */
function makeRoom(table: PlanTable): void {
  if (table.size < PLANS_MAX) return
  for (const byOuter of Object.values(table.byKind)) byOuter.clear()
  table.byPeer.clear()
  table.size = 0
}

function keepPlan(table: PlanTable, kind: PlanKind, outer: string, inner: string, plan: AttemptPlan): AttemptPlan {
  makeRoom(table)
  const byKind = table.byKind[kind]
  let byInner = byKind.get(outer)
  if (!byInner) byKind.set(outer, (byInner = new Map()))
  byInner.set(inner, plan)
  table.size++
  return plan
}

/** The attempt's plan: the client's read unless marked, the per-identifier counter, the total when it applies. */
function makePlan(limits: ResolvedRateLimit, client: string | undefined, key: string, id: string | undefined, total: boolean): AttemptPlan {
  const steps: CountedStep[] = []
  if (client !== undefined && !key.startsWith("mark:")) stepsOf("credentials.perClient", limits.rules["credentials.perClient"], client, 0, steps)
  stepsOf("credentials.perIdentifier", limits.rules["credentials.perIdentifier"], key, 1, steps)
  if (total && id !== undefined) stepsOf("credentials.perIdentifier", identifierTotals(limits), id, 1, steps)
  const forget = keysOf(limits.rules["credentials.perIdentifier"], key, [])
  if (id !== undefined && !key.startsWith("client:")) keysOf(identifierTotals(limits), id, forget)
  return { steps: Object.freeze(steps.map((step) => Object.freeze(step))), forget: Object.freeze(forget) }
}

/** The attempt's counters: which key, and whether the total applies (see the module comment). */
function attemptOf(req: AuthRequest, ctx: Context, limits: ResolvedRateLimit, identifier: string | undefined): Attempt {
  const perIdentifier = limits.rules["credentials.perIdentifier"].length > 0
  const perClient = limits.rules["credentials.perClient"].length > 0
  if (!perIdentifier) {
    const client = perClient ? clientOf(req, ctx) : undefined
    return new Attempt(ctx, client, identifier === undefined ? undefined : normalizeIdentifier(identifier) || undefined, false, client === undefined ? undefined : readOnly(limits, client))
  }
  const table = tableOf(limits)
  const resolved = identifier === undefined ? undefined : resolvedIdentifier(req, ctx, limits, table, identifier)
  if (resolved === undefined) {
    // No identifier (or none left once normalised): the client's fixed key. `failures` is `client`
    // or nothing, the same for every attempt under these limits: the client alone keys a plan.
    const client = clientOf(req, ctx)
    const failures = perClient ? client : undefined
    const plan = cachedPlan(table, "client", client ?? "", "") ?? keepPlan(table, "client", client ?? "", "", makePlan(limits, failures, `client:${client ?? ""}`, undefined, false))
    return new Attempt(ctx, failures, undefined, false, plan)
  }
  const { id, client } = resolved
  const failures = perClient ? client : undefined
  const value = req.cookies[deviceMarkCookieName(ctx.secure)]
  const mark = value === undefined ? undefined : verifiedDeviceMark(value, id, ctx.config.secret, Date.now())
  if (mark !== undefined) {
    const plan = cachedPlan(table, "mark", mark.id, id) ?? keepPlan(table, "mark", mark.id, id, makePlan(limits, failures, `mark:${mark.id}`, id, false))
    return new Attempt(ctx, failures, id, mark.renew, plan)
  }
  return new Attempt(ctx, failures, id, true, resolved.plan)
}

/**
 * The submitted `identifier` normalised, the client's key and the plan of an attempt without a
 * device mark; undefined when nothing is left of the identifier. Remembered per peer and text
 * where the client's key is the peer's alone (see `PlanTable.byPeer`).
 */
function resolvedIdentifier(req: AuthRequest, ctx: Context, limits: ResolvedRateLimit, table: PlanTable, identifier: string): Resolved | undefined {
  const peer = limits.trust === undefined || limits.trust.hops === 0 ? req.clientAddress : undefined
  const known = peer === undefined ? undefined : table.byPeer.get(peer)?.get(identifier)
  if (known) return known
  const id = normalizeIdentifier(identifier) || undefined
  if (id === undefined) return undefined
  const client = clientOf(req, ctx)
  const failures = limits.rules["credentials.perClient"].length > 0 ? client : undefined
  const plan = cachedPlan(table, "net", client ?? "", id) ?? keepPlan(table, "net", client ?? "", id, makePlan(limits, failures, `net:${client === undefined ? "" : networkOfKey(client)}:${id}`, id, true))
  const resolved = { id, client, plan }
  if (peer !== undefined && client !== undefined && peer.length + identifier.length <= RESOLVED_MAX_TEXT) keepResolved(table, peer, identifier, resolved)
  return resolved
}

/** Longest peer and identifier text, together, kept in `byPeer` (a long text is resolved every time): memory stays small whatever is sent. */
const RESOLVED_MAX_TEXT = 320

function keepResolved(table: PlanTable, peer: string, identifier: string, resolved: Resolved): void {
  makeRoom(table)
  let byIdentifier = table.byPeer.get(peer)
  if (!byIdentifier) table.byPeer.set(peer, (byIdentifier = new Map()))
  byIdentifier.set(identifier, resolved)
  table.size++
}

/** Without per-identifier limits: the client's read alone. */
function readOnly(limits: ResolvedRateLimit, client: string): AttemptPlan {
  const steps: CountedStep[] = []
  stepsOf("credentials.perClient", limits.rules["credentials.perClient"], client, 0, steps)
  return { steps, forget: [] }
}

/**
 * Before `authorize`, in one store call: checks (without counting) the client's failures, unless
 * the browser holds a device mark for the identifier; then counts the attempt on its
 * per-identifier counter, then on the identifier's total. Throws `RateLimited` at the first that
 * is over: a refused attempt is not counted further, so hammering one network's counter never
 * uses up the total.
 */
export function credentialsAttempt(req: AuthRequest, ctx: Context, identifier: string | undefined): CredentialsAttempt | Promise<CredentialsAttempt> {
  const limits = ctx.config.rateLimit
  if (!limits) return NOTHING
  const attempt = attemptOf(req, ctx, limits, identifier)
  const steps = attempt.plan?.steps
  if (!steps || steps.length === 0) return attempt
  const done = countEach(ctx, steps)
  return isThenable(done) ? done.then(() => attempt) : attempt
}
