/**
 * Enterprise SSO: one provider for every organization's SAML 2.0 connection (connections, domains
 * and their IdPs are data, managed with `createSsoConnection` and friends). Needs the `sso` and
 * `organizations` options, an adapter with the `ssoConnections` port, and `@authlib/saml` (an
 * optional peer dependency: `pnpm add @authlib/saml`), loaded the first time a SAML request arrives.
 *
 * ```ts
 * import SSO from "@authlib/providers/sso"
 * Auth(request, {
 *   url: "https://app.example.com", // the SP entity ID and ACS URL are built from it
 *   adapter,
 *   organizations: { sendInvitation },
 *   sso: {},
 *   providers: [SSO()],
 * })
 * ```
 * @module
 */
import type { ResolveTxt, SamlEngine, SsoConfig } from "@authlib/core"

/** What `SSO()` takes. */
export interface SsoUserConfig {
  /** The provider's id (its sign-in URL is `signin/{id}`). Default `sso`. */
  id?: string
  /** The label of its button. Default `Sign in with SSO`. */
  name?: string
}

/** The module specifier, in a variable so bundlers leave the optional peer alone. */
const SAML_MODULE = "@authlib/saml"

/**
 * Imports `@authlib/saml`.
 * @internal exported for tests
 */
export async function loadSaml(specifier = SAML_MODULE): Promise<SamlEngine> {
  return (await import(/* @vite-ignore */ specifier)) as SamlEngine
}

const DNS_MODULE = "node:dns/promises"
/** `node:dns/promises`' `resolveTxt`, loaded on the first domain verification. */
const nodeResolveTxt: ResolveTxt = async (hostname) => ((await import(/* @vite-ignore */ DNS_MODULE)) as { resolveTxt: ResolveTxt }).resolveTxt(hostname)

/**
 * The SSO provider factory: `type` "sso", id `sso`, name "Sign in with SSO"; domains verified with
 * `node:dns/promises`' `resolveTxt` unless `sso.resolveTxt` is set.
 */
export default function SSO(options: SsoUserConfig = {}): SsoConfig {
  return { id: options.id ?? "sso", name: options.name ?? "Sign in with SSO", type: "sso", saml: () => loadSaml(), resolveTxt: nodeResolveTxt }
}
export { SSO }
