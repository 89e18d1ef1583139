/**
 * Every value that reaches organizations from outside, checked before any store call: organization
 * and invitation ids (UUIDs core made), user ids, slugs, names, addresses, roles, invitation tokens.
 * A malformed value is refused with its own code and a message that repeats nothing of it.
 */
import { OrganizationError } from "./errors.js"
import type { RoleTable } from "./roles.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** User ids are the adapter's: printable ASCII without spaces, at most 128 characters. */
const USER_ID = /^[\x21-\x7e]{1,128}$/
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
export const MIN_SLUG = 2
export const MAX_SLUG = 48
const MAX_NAME = 100
const MAX_EMAIL = 254
/** Control and format characters (bidi overrides, zero-width): never part of a name. */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu
/** A 32-byte token in base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/

/** An id core made (an organization's or an invitation's). */
export function organizationIdOf(value: unknown): string {
  if (typeof value !== "string" || !UUID.test(value)) throw new OrganizationError("That organization id is not valid", { code: "ID_INVALID" })
  return value
}

/** An invitation's id. */
export function invitationIdOf(value: unknown): string {
  if (typeof value !== "string" || !UUID.test(value)) throw new OrganizationError("That invitation id is not valid", { code: "ID_INVALID" })
  return value
}

/** A user's id as the adapter gives them. */
export function userIdOf(value: unknown): string {
  if (typeof value !== "string" || !USER_ID.test(value)) throw new OrganizationError("That user id is not valid", { code: "ID_INVALID" })
  return value
}

/** A slug: lowercase letters, digits and single hyphens, 2 to 48 characters. */
export function slugOf(value: unknown): string {
  if (typeof value !== "string" || value.length < MIN_SLUG || value.length > MAX_SLUG || !SLUG.test(value))
    throw new OrganizationError(`A slug is ${MIN_SLUG} to ${MAX_SLUG} lowercase letters, digits and single hyphens`, { code: "SLUG_INVALID" })
  return value
}

/** A slug made from a name (accents dropped, anything else a hyphen), or `""` when nothing usable is left. */
export function slugFromName(name: string): string {
  const slug = name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
  return slug.slice(0, MAX_SLUG - 7).replace(/-+$/, "")
}

/** A name: invisible characters removed, trimmed, 1 to 100 characters. */
export function nameOf(value: unknown): string {
  const name = typeof value === "string" ? value.replace(INVISIBLE, "").trim() : ""
  if (name === "" || name.length > MAX_NAME) throw new OrganizationError(`A name is 1 to ${MAX_NAME} characters`, { code: "NAME_INVALID" })
  return name
}

/** An e-mail address as typed, trimmed: one `@`, something on both sides, no spaces or control characters. */
export function emailOf(value: unknown): string {
  const email = typeof value === "string" ? value.trim() : ""
  const at = email.indexOf("@")
  if (email.length > MAX_EMAIL || at < 1 || at !== email.lastIndexOf("@") || at === email.length - 1 || /[\s\p{Cc}\p{Cf}<>]/u.test(email))
    throw new OrganizationError("That e-mail address is not valid", { code: "EMAIL_INVALID" })
  return email
}

/** A role the table has. */
export function roleOf(roles: RoleTable, value: unknown): string {
  if (typeof value !== "string" || !roles.has(value)) throw new OrganizationError("No such role", { code: "ROLE_UNKNOWN" })
  return value
}

/** An invitation token's shape; anything else is an invalid invitation, as an unknown token is. */
export function tokenOf(value: unknown): string {
  if (typeof value !== "string" || !TOKEN.test(value)) throw new OrganizationError("This invitation is not valid", { code: "INVITATION_INVALID" })
  return value
}
