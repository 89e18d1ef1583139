/**
 * `basePath`, normalised in one place for `Auth()`, `toNodeHandler`, `getSession` and the Qwik
 * binding: a leading `/` added, trailing ones removed, so `"auth"`, `"/auth/"` and `"/auth"` are one
 * mount point and `"/"` mounts the routes at the root (`/signin`, `/session`, ...). And one answer to
 * "is this path authlib's", which a binding asks before handing a request to core.
 */

/** The default mount point. */
export const DEFAULT_BASE_PATH = "/auth"


/** `basePath` as every part of authlib uses it: `""` for the root, else `/segment[/segment...]` without a trailing slash. */
export function normalizeBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? DEFAULT_BASE_PATH).trim().replace(/\/+$/, "")
  if (trimmed === "") return ""
  return trimmed.startsWith("/") ? trimmed : `/${trimmed}`
}

/**
 * Whether a request for `pathname` is authlib's under the normalised `basePath`. At the root only the
 * `actions` of the registry are (so an app mounted beside authlib keeps every other path); elsewhere
 * everything under the mount point is (an unknown action there is answered by core).
 */
export function isAuthPath(pathname: string, basePath: string, actions: ReadonlySet<string>): boolean {
  if (basePath === "") return actions.has(pathname.split("/")[1] ?? "")
  return pathname === basePath || pathname.startsWith(`${basePath}/`)
}
