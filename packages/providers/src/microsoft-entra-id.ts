/**
 * Sign in with Microsoft Entra ID (formerly Azure AD), OpenID Connect v2.0 endpoints.
 *
 * ```ts
 * import MicrosoftEntraID from "@authlib/providers/microsoft-entra-id"
 * providers: [MicrosoftEntraID({ tenantId: "<tenant-guid>" })]
 * // or issuer from AUTH_MICROSOFT_ENTRA_ID_ISSUER; id/secret from AUTH_MICROSOFT_ENTRA_ID_ID / _SECRET
 * ```
 *
 * The profile picture is not fetched: it needs a Microsoft Graph call (`/me/photos/...`) with the
 * `User.Read` scope and comes back as binary. `image` stays null unless your own `profile`
 * callback provides one.
 *
 * Entra's `email` claim is not verified by Microsoft (a tenant admin can set it to any value), so
 * the preset never marks it `emailVerified`: users it creates are never linked by e-mail (not even
 * with `allowDangerousEmailAccountLinking`), and proving the address later by e-mail link removes
 * the Entra link (see core's README, "Account linking").
 * @module
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions } from "./shared/types.js"
import { oidcPreset } from "./shared/oidc-preset.js"
import { InvalidProviderOptions } from "./errors.js"

/** Claims of an Entra ID token the preset reads. */
export interface MicrosoftEntraIDProfile {
  [claim: string]: unknown
  sub: string
  /** Object id of the user in the tenant. */
  oid?: string
  tid?: string
  name?: string
  email?: string
  preferred_username?: string
}

/** Options of the Entra preset: any provider field, plus the tenant. */
export interface MicrosoftEntraIDUserConfig extends OIDCOptions<MicrosoftEntraIDProfile> {
  /**
   * A tenant id (GUID or verified domain), or `"common"` / `"organizations"` / `"consumers"` for
   * multi-tenant apps. Ignored when `issuer` is given.
   */
  tenantId?: string
}

/** The v2.0 issuer of a tenant: `https://login.microsoftonline.com/<tenantId>/v2.0`. */
export function entraIssuer(tenantId = "common"): string {
  if (!/^[A-Za-z0-9.-]+$/.test(tenantId)) {
    throw new InvalidProviderOptions(`"tenantId" must be a tenant GUID, domain or "common"`, { code: "INVALID_PROVIDER_OPTIONS", cause: { provider: "microsoft-entra-id", received: tenantId } })
  }
  return `https://login.microsoftonline.com/${tenantId}/v2.0`
}

/** Entra's claims as an authlib user; `image` is null and the address unverified (see the module notes). */
export function microsoftEntraIDProfile(profile: MicrosoftEntraIDProfile) {
  return { id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: null, emailVerified: null }
}

/**
 * The Microsoft Entra ID provider preset. The issuer is `options.issuer`, else the tenant's issuer
 * when `tenantId` is given, else left unset so `setEnvDefaults` can fill it from
 * `AUTH_MICROSOFT_ENTRA_ID_ISSUER`. Pass `tenantId: "common"` to opt in to multi-tenant sign-in.
 */
export default function MicrosoftEntraID(options: MicrosoftEntraIDUserConfig = {}): OIDCConfig<MicrosoftEntraIDProfile> {
  const { tenantId, ...rest } = options
  const issuer = options.issuer ?? (tenantId !== undefined ? entraIssuer(tenantId) : undefined)
  const config = oidcPreset(
    {
      id: "microsoft-entra-id",
      name: "Microsoft Entra ID",
      ...(issuer !== undefined ? { issuer } : {}),
      profile: microsoftEntraIDProfile,
      style: { brandColor: "#0072c6" },
    },
    rest,
  )
  // `tenantId` is not a provider field: it is left out of the merge but kept in `options`.
  return { ...config, options: options as OIDCConfig<MicrosoftEntraIDProfile>["options"] }
}
export { MicrosoftEntraID }
