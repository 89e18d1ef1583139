/**
 * The `organizations` option: its public type (added to `AuthConfig` by declaration merging), its
 * resolved form (`ctx.config.organizations`), and how it resolves and what makes it invalid (the
 * capability's `options` declaration). The role table it resolves is `roles.ts`'s.
 */
import type { Awaitable } from "@authlib/jwt"
import { Configuration } from "../../kernel/errors/errors.js"
import type { AdapterUser } from "../../kernel/types/adapters.js"
import type { OptionsDeclaration } from "../../kernel/types/capability.js"
import { resolveRoles, roleProblems, type RoleTable } from "./roles.js"

// Re-exported so that the emitted types of every module naming `OrganizationsOptions` load the
// rate-limit section (`rateLimit.organizations`) and the events too, both
// added by declaration merging in those files.
export type { OrganizationsRateLimitOptions } from "./rate-limits.js"
export type { OrganizationCreatedMessage } from "./events.js"

/** What `organizations.sendInvitation` receives. */
export interface InvitationMessage {
  /** The invited address, as the inviter typed it (trimmed). */
  email: string
  /** The single-use link: `{url}{basePath}/organizations/accept?token=...`, built from the configured `url`. */
  url: string
  organization: { id: string; name: string; slug: string }
  /** The member who sent it. */
  inviter: { id: string; name: string | null; email: string | null }
  /** The role the invited user gets on accepting. */
  role: string
  /** When the link stops working. */
  expires: Date
}

/** The `organizations` option. */
export interface OrganizationsOptions {
  /**
   * Roles by name, each the permissions it holds (strings such as `"member:invite"` or the app's
   * own `"invoice:approve"`): adds roles or redefines `admin` and `member`. `owner` cannot be
   * redefined: it holds every permission, the app's included. Names: lowercase letters, digits and
   * single hyphens, at most 32 characters.
   */
  roles?: Record<string, readonly string[]>
  /** Seconds an invitation stays valid. A whole number above 0; default 604800 (7 days). */
  invitationMaxAge?: number
  /** Sends the invitation (an e-mail with `url`). Run like a callback: a throw revokes the invitation and is `CallbackError`. */
  sendInvitation: (message: InvitationMessage) => Awaitable<void>
  /** Whether a signed-in user may create organizations: a boolean, or a function of the stored user. Default true. */
  allowUserToCreate?: boolean | ((user: AdapterUser) => Awaitable<boolean>)
  /** The most members an organization may have, pending invitations counted. A whole number above 0; default: no limit. */
  membershipLimit?: number
  /**
   * Seconds since the user last authenticated within which `deleteOrganization` is allowed (a user
   * with two factors also needs a second factor that recent, as for every change to their ways in).
   * A whole number above 0; default 600.
   */
  freshAge?: number
}

/** `organizations` as core uses it, every default applied. */
export type ResolvedOrganizationsOptions = Readonly<{
  roles: RoleTable
  invitationMaxAge: number
  sendInvitation: OrganizationsOptions["sendInvitation"]
  allowUserToCreate: NonNullable<OrganizationsOptions["allowUserToCreate"]>
  membershipLimit: number | undefined
  freshAge: number
}>

declare module "../../kernel/types/config.js" {
  interface CapabilityOptions {
    /**
     * Organizations (authlib extension): organizations with members, roles and invitations, and an
     * active organization in the session. Off unless set; needs an adapter with the `organizations`
     * port and the app's `url`. See the README's "Organizations".
     */
    organizations?: OrganizationsOptions
  }
}

declare module "../../kernel/types/resolved-config.js" {
  interface ResolvedCapabilityOptions {
    /** Organizations, or undefined when the `organizations` option is not set. */
    readonly organizations: ResolvedOrganizationsOptions | undefined
  }
}

/** Seconds an invitation stays valid unless `organizations.invitationMaxAge` says otherwise: 7 days. */
export const DEFAULT_INVITATION_MAX_AGE = 7 * 24 * 60 * 60

/** Seconds an authentication counts as fresh for deleting an organization unless `organizations.freshAge` says otherwise. */
export const DEFAULT_ORGANIZATION_FRESH_AGE = 600

const wholeAboveZero = (value: unknown) => value === undefined || (Number.isSafeInteger(value) && (value as number) > 0)
const shown = (value: unknown) => (typeof value === "number" ? String(value) : JSON.stringify(value) ?? typeof value)

/** The `organizations` option's resolution and start-up checks. */
export const organizationsOption: OptionsDeclaration = {
  key: "organizations",
  resolve: (options: OrganizationsOptions | undefined) =>
    options
      ? Object.freeze({
          // A malformed table is reported by `problems`; resolving keeps what is usable.
          roles: resolveRoles(options.roles),
          invitationMaxAge: options.invitationMaxAge ?? DEFAULT_INVITATION_MAX_AGE,
          sendInvitation: options.sendInvitation,
          allowUserToCreate: options.allowUserToCreate ?? true,
          membershipLimit: options.membershipLimit,
          freshAge: options.freshAge ?? DEFAULT_ORGANIZATION_FRESH_AGE,
        })
      : undefined,
  problems(options: OrganizationsOptions | undefined) {
    if (options === undefined) return []
    const problems: Configuration[] = []
    const invalid = (message: string) => problems.push(new Configuration(message, { code: "CONFIG_INVALID", cause: { option: "organizations" } }))
    if (typeof options !== "object" || options === null) {
      invalid('"organizations" must be an object')
      return problems
    }
    for (const key of ["invitationMaxAge", "membershipLimit", "freshAge"] as const)
      if (!wholeAboveZero(options[key])) invalid(`"organizations.${key}" must be a whole number above 0, not ${shown(options[key])}`)
    if (typeof options.sendInvitation !== "function") invalid('"organizations.sendInvitation" must be a function that sends the invitation link')
    const allow: unknown = options.allowUserToCreate
    if (allow !== undefined && typeof allow !== "boolean" && typeof allow !== "function") invalid('"organizations.allowUserToCreate" must be true, false or a function of the user')
    for (const message of roleProblems(options.roles)) invalid(message)
    return problems
  },
}
