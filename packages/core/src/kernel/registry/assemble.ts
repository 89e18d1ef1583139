/**
 * The registry: every capability's declarations merged once into look-up tables (action -> route,
 * provider type -> flow). Two capabilities claiming one action or one provider type is a
 * programming error, thrown when the registry is assembled (at module load, so a test catches it).
 */
import type { ProviderType } from "../types/model.js"
import type { BeforeIssueHook, Capability, FlowDeclaration, HeldSignInHook, RouteDeclaration, SignOutHook } from "../types/capability.js"

/** The merged declarations. */
export interface Registry {
  readonly capabilities: readonly Capability[]
  /** Every action under `basePath`. */
  readonly actions: ReadonlySet<string>
  route(action: string): RouteDeclaration | undefined
  /** The methods an action accepts (for `Allow` and 405). */
  methods(action: string): readonly ("GET" | "POST")[]
  flow(type: ProviderType): FlowDeclaration | undefined
  readonly signOutRedirects: readonly SignOutHook[]
  readonly beforeIssue: readonly BeforeIssueHook[]
  readonly heldSignIn: readonly HeldSignInHook[]
  /** Sign-in body fields that belong to a capability (`BeforeIssueHook.bodyFields`), not to the app. */
  readonly bodyFields: ReadonlySet<string>
}

export function assembleRegistry(capabilities: readonly Capability[]): Registry {
  const routes = new Map<string, RouteDeclaration>()
  const flows = new Map<ProviderType, FlowDeclaration>()
  for (const capability of capabilities) {
    for (const route of capability.routes ?? []) {
      if (routes.has(route.action)) throw new Error(`capability "${capability.name}" declares action "${route.action}", which another capability declares`)
      if (route.POST && !route.POST.csrf && !route.POST.csrfBy) throw new Error(`capability "${capability.name}": POST ${route.action} needs the kernel's CSRF check or "csrfBy"`)
      routes.set(route.action, route)
    }
    for (const [type, flow] of Object.entries(capability.flows ?? {}) as [ProviderType, FlowDeclaration][]) {
      if (flows.has(type)) throw new Error(`capability "${capability.name}" declares a flow for "${type}", which another capability declares`)
      flows.set(type, flow)
    }
  }
  const methods = new Map([...routes].map(([action, r]) => [action, (["GET", "POST"] as const).filter((m) => r[m] !== undefined)]))
  return Object.freeze({
    capabilities: Object.freeze([...capabilities]),
    actions: new Set(routes.keys()),
    route: (action: string) => routes.get(action),
    methods: (action: string) => methods.get(action) ?? [],
    flow: (type: ProviderType) => flows.get(type),
    signOutRedirects: Object.freeze(capabilities.flatMap((c) => (c.signOutRedirect ? [c.signOutRedirect] : []))),
    beforeIssue: Object.freeze(capabilities.flatMap((c) => (c.beforeIssue ? [c.beforeIssue] : []))),
    heldSignIn: Object.freeze(capabilities.flatMap((c) => (c.heldSignIn ? [c.heldSignIn] : []))),
    bodyFields: new Set(capabilities.flatMap((c) => c.beforeIssue?.bodyFields ?? [])),
  })
}
