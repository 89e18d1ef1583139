/**
 * The events of organizations, added to `EventCallbacks` by declaration merging (the kernel's event
 * table does not name them): fired once the store has made the change, for audit logs.
 */
import type { Awaitable } from "@authlib/jwt"

/** What `events.organizationCreated` receives. */
export interface OrganizationCreatedMessage {
  organization: { id: string; name: string; slug: string; createdAt: Date }
  /** The creator, now its owner. */
  user: { id: string }
}

/** What `events.memberAdded` receives. */
export interface MemberAddedMessage {
  organizationId: string
  userId: string
  role: string
  /** `created`: the creator became owner; `invitation`: an invitation was accepted; `sso`: the user signed in through one of its SSO connections. */
  via: "created" | "invitation" | "sso"
}

/** What `events.memberRemoved` receives. */
export interface MemberRemovedMessage {
  organizationId: string
  userId: string
  /** The role the member had. */
  role: string
  /** Who removed them (their own id when they left). */
  by: string
  reason: "removed" | "left"
}

/** What `events.memberRoleChanged` receives. */
export interface MemberRoleChangedMessage {
  organizationId: string
  userId: string
  role: string
  previousRole: string
  by: string
}

/** What `events.invitationSent` receives. */
export interface InvitationSentMessage {
  organizationId: string
  invitationId: string
  email: string
  role: string
  inviterId: string
  expires: Date
}

declare module "../../kernel/types/config.js" {
  interface EventCallbacks {
    /** authlib extension (organizations): an organization was created; its creator is its owner. */
    organizationCreated: (message: OrganizationCreatedMessage) => Awaitable<void>
    /** authlib extension (organizations): a user became a member (creating the organization, or accepting an invitation). */
    memberAdded: (message: MemberAddedMessage) => Awaitable<void>
    /** authlib extension (organizations): a member was removed, or left. */
    memberRemoved: (message: MemberRemovedMessage) => Awaitable<void>
    /** authlib extension (organizations): a member's role changed. */
    memberRoleChanged: (message: MemberRoleChangedMessage) => Awaitable<void>
    /** authlib extension (organizations): an invitation was stored and handed to `sendInvitation`. */
    invitationSent: (message: InvitationSentMessage) => Awaitable<void>
  }
}
