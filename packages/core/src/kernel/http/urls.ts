/**
 * URLs core sends users to: custom `pages` (paths resolved against the application origin) or the
 * built-in routes under `basePath`, with query parameters appended safely.
 */
import type { Context } from "../types/http.js"
import type { PagesOptions } from "../types/config.js"

/** `path` (absolute or relative to the origin) with `params` added to its query. */
export function pageUrl(ctx: Pick<Context, "origin">, path: string, params: Record<string, string | undefined> = {}): string {
  const url = new URL(path, ctx.origin)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.href
}

/** The kernel's pages; a capability's page is the route that declares its key (`RouteDeclaration.page`). */
const BUILTIN: Partial<Record<keyof PagesOptions, string>> = {
  signIn: "signin",
  signOut: "signout",
  error: "error",
  verifyRequest: "verify-request",
}

/** The custom page for `page` when configured, else the built-in route. */
export function routeUrl(ctx: Context, page: keyof PagesOptions, params: Record<string, string | undefined> = {}): string {
  const custom = ctx.config.pages[page]
  return pageUrl(ctx, custom ?? `${ctx.actionBase}/${BUILTIN[page] ?? ctx.config.registry.page(page) ?? ""}`, params)
}
