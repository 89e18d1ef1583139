/**
 * The adapter port of organizations: the record types, the methods (added to `Adapter` by
 * declaration merging) and the port's method list, which the capability declares
 * (`Capability.ports`) and `ADAPTER_PORTS` lists.
 *
 * Core decides who may do what (roles, permissions, the caller's membership read from the store at
 * each use); the adapter keeps the rules that must hold when two instances act at once, each in one
 * conditional write. Race rules (the conformance suite in `@authlib/adapter-test` checks them):
 * - An organization always keeps at least one member whose role is `"owner"`:
 *   `updateOrganizationMemberRole` and `removeOrganizationMember` refuse (`"last-owner"`) a change
 *   that would leave none, also when two owners demote or remove each other at once (exactly one
 *   of them wins). A check and a write in separate statements does not hold (each statement sees
 *   the other owner); a counter of owners on the organization's own row, decremented conditionally
 *   in the same statement, does.
 * - `acceptOrganizationInvitation`: of concurrent calls for one invitation exactly one caller
 *   receives the membership; the invitation is used once.
 * - `createOrganizationInvitation` with `membershipLimit`: members plus pending, unexpired
 *   invitations never pass the limit, under concurrent calls too.
 * - Slugs are unique (`createOrganization` and `updateOrganization` answer `"slug-taken"`).
 * - `deleteOrganization` removes its members and invitations with it. `deleteUser` removes the
 *   user's memberships; an organization whose only member was the user goes with them. A user who
 *   is the last owner of an organization that has other members is not deleted: `deleteUser` throws
 *   `OrganizationError` `LAST_OWNER` and changes nothing (no member loses their organization, nobody
 *   becomes owner by accident).
 *
 * E-mail addresses are compared case-insensitively and otherwise exactly (a `+tag` is part of the
 * address). Invitation tokens reach the adapter already hashed by core: store them as given.
 */
import type { Awaitable } from "@authlib/jwt"

/** The built-in role an organization always has at least one member of; it holds every permission. */
export const OWNER_ROLE = "owner"

/** An organization as an adapter returns it (authlib only). */
export interface AdapterOrganization {
  id: string
  name: string
  /** Unique across organizations: lowercase letters, digits and single hyphens (core validates). */
  slug: string
  createdAt: Date
}

/** A user's membership of an organization. */
export interface AdapterOrganizationMember {
  organizationId: string
  userId: string
  /** A role name: `owner`, `admin`, `member` or one of the app's (core validates it). */
  role: string
  joinedAt: Date
}

/** A membership with the user's name and address, as `listOrganizationMembers` returns it. */
export interface AdapterOrganizationMemberWithUser extends AdapterOrganizationMember {
  name: string | null
  email: string | null
}

/** An organization with the role of the user it was listed for. */
export interface AdapterOrganizationWithRole extends AdapterOrganization {
  role: string
}

/**
 * An invitation as stored. `status` is what was written; core reports a pending invitation past its
 * `expires` as `"expired"`.
 */
export interface AdapterOrganizationInvitation {
  id: string
  organizationId: string
  /** The invited address, as typed by the inviter (trimmed). */
  email: string
  role: string
  /** The id of the member who sent it. */
  inviterId: string
  /** SHA-256 of the single-use token (base64url), computed by core. */
  tokenHash: string
  expires: Date
  status: "pending" | "accepted" | "revoked"
  createdAt: Date
}

/** The `organizations` port: the methods an adapter implements together for organizations. */
export const ORGANIZATIONS_PORT = [
  "createOrganization", "getOrganization", "getOrganizationBySlug", "updateOrganization", "deleteOrganization",
  "listOrganizationsByUserId", "getOrganizationMember", "listOrganizationMembers", "updateOrganizationMemberRole",
  "removeOrganizationMember", "createOrganizationInvitation", "getOrganizationInvitation",
  "getOrganizationInvitationByTokenHash", "listOrganizationInvitations", "revokeOrganizationInvitation",
  "acceptOrganizationInvitation",
] as const

declare module "../../kernel/types/adapters.js" {
  interface Adapter {
    /**
     * Organizations port: creates the organization and makes `ownerId` its owner (joined now), in
     * one write. `"slug-taken"`, and nothing written, when another organization has the slug.
     */
    createOrganization?(organization: { id: string; name: string; slug: string; ownerId: string }): Awaitable<AdapterOrganization | "slug-taken">
    /** Organizations port: the organization, `null` when unknown. */
    getOrganization?(id: string): Awaitable<AdapterOrganization | null>
    /** Organizations port: the organization with this slug, `null` when none. */
    getOrganizationBySlug?(slug: string): Awaitable<AdapterOrganization | null>
    /**
     * Organizations port: changes the name and/or slug. `null` for an unknown organization,
     * `"slug-taken"` when another organization has the slug (nothing written either way).
     */
    updateOrganization?(id: string, patch: { name?: string; slug?: string }): Awaitable<AdapterOrganization | "slug-taken" | null>
    /** Organizations port: deletes the organization with its members and invitations. Answers whether there was one. */
    deleteOrganization?(id: string): Awaitable<boolean>
    /** Organizations port: the organizations `userId` is a member of, each with the user's role (oldest membership first). */
    listOrganizationsByUserId?(userId: string): Awaitable<AdapterOrganizationWithRole[]>
    /**
     * Organizations port: the membership of `userId` in `organizationId`, `null` when none. Core
     * asks it on every use of a membership, so it must be one indexed lookup.
     */
    getOrganizationMember?(organizationId: string, userId: string): Awaitable<AdapterOrganizationMember | null>
    /** Organizations port: the members with their users' name and address (oldest first); `[]` for an unknown organization. */
    listOrganizationMembers?(organizationId: string): Awaitable<AdapterOrganizationMemberWithUser[]>
    /**
     * Organizations port: sets the member's role, in one conditional write. Answers the updated
     * membership; `null` when `userId` is not a member; `"last-owner"` when the member is the
     * organization's only owner and `role` is not `"owner"`. With `actor`, writes only while
     * `actor.userId` is still a member with role `actor.role` (`null` otherwise), so a demoted admin's
     * request in flight changes nothing. Nothing is written unless the answer is a membership.
     */
    updateOrganizationMemberRole?(
      organizationId: string, userId: string, role: string, actor?: { userId: string; role: string },
    ): Awaitable<AdapterOrganizationMember | "last-owner" | null>
    /**
     * Organizations port: removes the membership, in one conditional write (the same `actor` rule
     * as `updateOrganizationMemberRole`). Answers the removed membership; `null` when there was none
     * (or the actor no longer holds the role); `"last-owner"` when it is the organization's only
     * owner (nothing removed).
     */
    removeOrganizationMember?(
      organizationId: string, userId: string, actor?: { userId: string; role: string },
    ): Awaitable<AdapterOrganizationMember | "last-owner" | null>
    /**
     * Organizations port: stores the invitation, replacing a pending invitation of the same
     * organization for the same address (compared case-insensitively), in one conditional write.
     * `"member-exists"` when a member's user has that address; `"limit-reached"` when
     * `membershipLimit` is given and members plus pending invitations whose `expires` is after `now`
     * (the replaced one not counted) would pass it. Nothing is written unless an invitation is answered.
     */
    createOrganizationInvitation?(
      invitation: Omit<AdapterOrganizationInvitation, "status" | "createdAt">,
      options: { now: Date; membershipLimit?: number },
    ): Awaitable<AdapterOrganizationInvitation | "member-exists" | "limit-reached">
    /** Organizations port: the invitation, `null` when unknown. */
    getOrganizationInvitation?(id: string): Awaitable<AdapterOrganizationInvitation | null>
    /** Organizations port: the invitation whose token hashes to `tokenHash`, `null` when none. */
    getOrganizationInvitationByTokenHash?(tokenHash: string): Awaitable<AdapterOrganizationInvitation | null>
    /** Organizations port: the organization's invitations of every status, newest first. */
    listOrganizationInvitations?(organizationId: string): Awaitable<AdapterOrganizationInvitation[]>
    /** Organizations port: marks a pending invitation revoked. Answers whether this call revoked it. */
    revokeOrganizationInvitation?(id: string): Awaitable<boolean>
    /**
     * Organizations port: in one conditional write, marks the invitation with this token hash
     * accepted and makes `userId` a member with its role, only while it is pending, its `expires` is
     * after `now` and its address equals `email` case-insensitively. Answers the new membership;
     * `null` (nothing written) otherwise. A user who became a member meanwhile keeps their role: the
     * invitation is used and their membership answered. Of concurrent calls for one invitation
     * exactly one receives a membership.
     */
    acceptOrganizationInvitation?(params: { tokenHash: string; userId: string; email: string; now: Date }): Awaitable<AdapterOrganizationMember | null>
  }
  interface CapabilityPorts {
    /** Organizations: organizations, their members with roles, and invitations (hashed tokens). */
    organizations: typeof ORGANIZATIONS_PORT
  }
}
