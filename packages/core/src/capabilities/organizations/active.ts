/**
 * The active organization: which of their organizations the signed-in user is working in, kept in
 * a cookie of its own (`authlib.active-organization`, `__Secure-` on https; HttpOnly, SameSite=Lax)
 * rather than in the session: it works the same under both strategies, and switching it writes no
 * session. The cookie holds the organization's id and an HMAC (a key derived from `secret`) over
 * the user's id and it, so it names an organization only for the user it was set for. It is never
 * trusted for access: every read (`GET {basePath}/session`, the bindings' session) asks the store
 * for the membership through the principal, so a removed member, a changed role or a deleted
 * organization shows at the very next request, and a cookie that no longer checks out is cleared.
 */
import type { Cookie } from "../../kernel/cookies/serialize.js"
import { derivedMac } from "../../kernel/security/derived-mac.js"
import { base64url, timingSafeEqual } from "../../kernel/security/random.js"
import { principalOf } from "../../kernel/sessions/principal.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import type { SessionFields, SessionFieldsHook } from "../../kernel/types/capability.js"
import { organizationIdOf } from "./identifiers.js"
import { callerIn, organizationStore, organizationsOptions, unknownOrganization } from "./membership.js"

/** The active organization as the session carries it. */
export interface ActiveOrganization {
  id: string
  slug: string
  /** The user's role in it, read from the store for this request. */
  role: string
}

declare module "../../kernel/types/model.js" {
  interface Session {
    /**
     * authlib extension (organizations): the organization the user chose with
     * `setActiveOrganization`, checked against the store on this request; `null` when none is
     * active or it no longer holds (the user left or was removed, the organization was deleted).
     * Present only when `organizations` is configured.
     */
    activeOrganization?: ActiveOrganization | null
  }
}

// A key of its own (HKDF-SHA256 of the secret), so this MAC can never stand for another value made with the secret.
const PURPOSE = "authlib active organization v1"
const MAX_VALUE = 128

const cookieName = (ctx: Context) => `${ctx.secure ? "__Secure-" : ""}authlib.active-organization`
const options = (ctx: Context, maxAge: number) => ({ httpOnly: true, sameSite: "lax" as const, path: "/", secure: ctx.secure, maxAge })
const macOf = (secret: string, userId: string, organizationId: string) => base64url(derivedMac(secret, PURPOSE, `${userId}\u0000${organizationId}`).subarray(0, 16))

/** The cookie naming `organizationId` for `userId` (signed with the first secret); enterprise SSO sets it at sign-in. */
export function activeCookie(ctx: Context, userId: string, organizationId: string): Cookie {
  return { name: cookieName(ctx), value: `${organizationId}.${macOf(ctx.config.secret[0]!, userId, organizationId)}`, options: options(ctx, ctx.config.session.maxAge) }
}

/** The cookie's expiry. */
export const clearActiveCookie = (ctx: Context): Cookie => ({ name: cookieName(ctx), value: "", options: options(ctx, 0) })

/** The organization id the cookie names for `userId` when its MAC checks out under any configured secret; else undefined. */
function chosenId(ctx: Context, value: string, userId: string): string | undefined {
  if (value.length > MAX_VALUE) return undefined
  const dot = value.indexOf(".")
  const id = value.slice(0, dot)
  const mac = value.slice(dot + 1)
  if (dot < 1 || mac === "") return undefined
  return ctx.config.secret.some((secret) => timingSafeEqual(mac, macOf(secret, userId, id))) ? id : undefined
}

/** `organizationId` with the user's role in it and its slug, both read now; null when they are not a member (or it is gone). */
async function activeFor(ctx: Context, userId: string, organizationId: string): Promise<ActiveOrganization | null> {
  const store = organizationStore(ctx)
  const [member, organization] = await Promise.all([store.getOrganizationMember(organizationId, userId), store.getOrganization(organizationId)])
  return member && organization ? { id: organization.id, slug: organization.slug, role: member.role } : null
}

/**
 * What the session answer carries (`sessionFields`): `activeOrganization`, checked against the
 * store through the principal, and the cookie cleared when it no longer holds. Costs nothing
 * without the cookie.
 */
export const activeOrganizationFields: SessionFieldsHook = (req, ctx) => {
  if (!ctx.config.organizations) return undefined
  const value = req.cookies[cookieName(ctx)]
  if (!value) return NO_ACTIVE_ORGANIZATION
  return checkedActive(req, ctx, value)
}

const NO_ACTIVE_ORGANIZATION = Object.freeze({ fields: Object.freeze({ activeOrganization: null }) })

/** The active organization the cookie `value` names, read now, or none with the cookie cleared. */
async function checkedActive(req: AuthRequest, ctx: Context, value: string): Promise<SessionFields> {
  const principal = await principalOf(req, ctx)
  const id = principal ? chosenId(ctx, value, principal.userId) : undefined
  const active = principal && id !== undefined ? await activeFor(ctx, principal.userId, id) : null
  return active ? { fields: { activeOrganization: active } } : { fields: { activeOrganization: null }, cookies: [clearActiveCookie(ctx)] }
}

/** What `setActiveOrganization` answers, with the cookie to set. */
export interface ActiveOrganizationChange {
  activeOrganization: ActiveOrganization | null
  cookies: Cookie[]
}

/** Makes `organizationId` (one the caller is a member of: `ORGANIZATION_UNKNOWN` otherwise) the active one, or none with `null`. */
export async function chooseActive(req: AuthRequest, ctx: Context, organizationId: unknown): Promise<ActiveOrganizationChange> {
  organizationsOptions(ctx)
  if (organizationId === null || organizationId === "") return { activeOrganization: null, cookies: [clearActiveCookie(ctx)] }
  const caller = await callerIn(req, ctx, organizationIdOf(organizationId))
  const active = await activeFor(ctx, caller.principal.userId, caller.organizationId)
  if (!active) throw unknownOrganization()
  return { activeOrganization: active, cookies: [activeCookie(ctx, caller.principal.userId, caller.organizationId)] }
}
