/**
 * Roles and permissions: the built-in permissions and roles, the app's roles merged over them
 * (`organizations.roles`), and the two questions every rule asks: does a role hold a permission,
 * and may an actor's role grant (or act on a member with) another role. `owner` holds every
 * permission, the app's own included, and cannot be redefined.
 */
import { OWNER_ROLE } from "./adapter.js"

/** The permissions core checks itself. */
export const BUILT_IN_PERMISSIONS = [
  "organization:update", "organization:delete", "member:invite", "member:update-role", "member:remove", "invitation:revoke",
] as const

/** A permission core checks itself. */
export type BuiltInPermission = (typeof BUILT_IN_PERMISSIONS)[number]

/** The built-in roles besides `owner` (which holds everything): admin has every built-in permission but deleting the organization; member none. */
export const BUILT_IN_ROLES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  admin: BUILT_IN_PERMISSIONS.filter((p) => p !== "organization:delete"),
  member: [],
})

/** Role name -> the permissions it holds; `owner` is in it, holding every permission (see `holds`). */
export type RoleTable = ReadonlyMap<string, ReadonlySet<string>>

const ROLE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const MAX_ROLE_NAME = 32
/** A permission: `resource:action` style, lowercase letters, digits, `-`, `_`, `.` and `:`; at most 100 characters. */
const PERMISSION = /^[a-z0-9][a-z0-9._-]*(?::[a-z0-9][a-z0-9._-]*)*$/
const MAX_PERMISSION = 100

/** Whether `value` is a well-formed permission string. */
export const isPermission = (value: unknown): value is string => typeof value === "string" && value.length <= MAX_PERMISSION && PERMISSION.test(value)

/** Whether `value` is a well-formed role name. */
export const isRoleName = (value: unknown): value is string => typeof value === "string" && value.length <= MAX_ROLE_NAME && ROLE_NAME.test(value)

/** What is wrong with the app's `roles`, one sentence each. */
export function roleProblems(roles: unknown): string[] {
  if (roles === undefined) return []
  if (typeof roles !== "object" || roles === null || Array.isArray(roles)) return ['"organizations.roles" must be an object of role name -> permissions']
  const problems: string[] = []
  for (const [name, permissions] of Object.entries(roles)) {
    if (name === OWNER_ROLE) problems.push('"organizations.roles.owner" cannot be set: an owner holds every permission')
    else if (!isRoleName(name)) problems.push(`"organizations.roles" has the role name ${JSON.stringify(name)}: use lowercase letters, digits and single hyphens, at most ${MAX_ROLE_NAME} characters`)
    if (!Array.isArray(permissions) || !permissions.every(isPermission))
      problems.push(`"organizations.roles.${name}" must be an array of permission strings (such as "member:invite" or "invoice:approve")`)
  }
  return problems
}

/** The role table: the built-in roles, the app's over them, and `owner`. Entries that `roleProblems` refuses are left out. */
export function resolveRoles(roles: Record<string, readonly string[]> | undefined): RoleTable {
  const table = new Map<string, ReadonlySet<string>>([[OWNER_ROLE, new Set(BUILT_IN_PERMISSIONS)]])
  const merged = { ...BUILT_IN_ROLES, ...(typeof roles === "object" && roles !== null ? roles : {}) }
  for (const [name, permissions] of Object.entries(merged))
    if (name !== OWNER_ROLE && isRoleName(name) && Array.isArray(permissions)) table.set(name, new Set(permissions.filter(isPermission)))
  return table
}

/** Whether `role` holds `permission` under `table`: an owner holds every well-formed permission; an unknown role none. */
export function holds(table: RoleTable, role: string, permission: string): boolean {
  if (!isPermission(permission)) return false
  if (role === OWNER_ROLE) return true
  return table.get(role)?.has(permission) === true
}

/**
 * Whether an actor with role `actor` covers role `target`: holds every permission `target` holds.
 * Only an owner covers `owner` (an owner holds permissions no list can name). What granting a role,
 * and acting on a member who has one, both ask.
 */
export function covers(table: RoleTable, actor: string, target: string): boolean {
  if (actor === OWNER_ROLE) return true
  if (target === OWNER_ROLE) return false
  const needed = table.get(target)
  return needed !== undefined && [...needed].every((permission) => holds(table, actor, permission))
}
