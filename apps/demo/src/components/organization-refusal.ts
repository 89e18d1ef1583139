/**
 * What the organization page says when core refuses an action: one sentence per `OrganizationError`
 * code (core decides; the page only words it), and the rate limit. Anything else is not a refusal
 * and is rethrown by the caller.
 */
import { OrganizationError, RateLimited } from "@authlib/qwik"

const SAID: Record<string, string> = {
  ORGANIZATION_UNKNOWN: "There is no such organization, or you are not a member of it.",
  NOT_A_MEMBER: "That person is not a member of this organization.",
  FORBIDDEN: "Your role in this organization does not allow that.",
  LAST_OWNER: "An organization always keeps an owner: make someone else an owner first.",
  ROLE_ESCALATION: "You cannot give a role that holds permissions your own role lacks.",
  ROLE_UNKNOWN: "There is no such role.",
  SLUG_TAKEN: "That short name is taken: choose another.",
  SLUG_INVALID: "A short name is 2 to 48 lowercase letters, digits and single hyphens.",
  NAME_INVALID: "Give the organization a name of at most 100 characters.",
  EMAIL_INVALID: "That is not an e-mail address.",
  ALREADY_A_MEMBER: "That address belongs to a member already.",
  MEMBERSHIP_LIMIT: "This organization is full.",
  INVITATION_INVALID: "That invitation is no longer valid.",
  INVITATION_EMAIL_MISMATCH: "That invitation is for another address: sign in with the invited, verified address.",
  CREATE_NOT_ALLOWED: "You may not create organizations.",
  ID_INVALID: "There is no such organization, or you are not a member of it.",
}

/** The refusal's status and sentence, or undefined when `err` is no refusal. */
export function refusal(err: unknown): { status: 403 | 404 | 409 | 410 | 400 | 429; message: string } | undefined {
  if (err instanceof RateLimited) return { status: 429, message: `Too many attempts. Please try again in ${err.retryAfter} seconds.` }
  if (!(err instanceof OrganizationError)) return undefined
  const status = err.status as 403 | 404 | 409 | 410 | 400
  return { status, message: (err.code && SAID[err.code]) || "That was refused." }
}
