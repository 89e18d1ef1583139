/** The user fields a session exposes by default (spec: name, email, image), from either strategy. */
import type { User } from "../types/model.js"

export function publicUser(source: { name?: unknown; email?: unknown; image?: unknown }): User {
  const user: User = {}
  if (source.name !== undefined) user.name = source.name as string | null
  if (source.email !== undefined) user.email = source.email as string | null
  if (source.image !== undefined) user.image = source.image as string | null
  return user
}
