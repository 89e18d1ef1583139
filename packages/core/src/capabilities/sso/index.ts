/**
 * Enterprise SSO: per-organization SAML 2.0 and OpenID Connect connections, verified domains, and
 * a sign-in type of its own (`sso`, `sign-in-type.ts`). Off unless `sso` is set; needs
 * `organizations`. Routes: `POST signin/sso` (the kernel's sign-in start), `POST sso/acs/:id`,
 * `GET sso/metadata/:id`, `GET sso/callback/:id` (`route.ts`). The SAML engine reaches core through the
 * provider (`engine.ts`), so core stays runtime-neutral. What it adds to the kernel's tables,
 * declared here and typed by declaration merging: its option (`options.ts`), errors (`errors.ts`)
 * and adapter port (`adapter.ts`).
 */
import { Configuration } from "../../kernel/errors/errors.js"
import { missingError, missingMethods } from "../../kernel/ports/ports.js"
import type { Capability } from "../../kernel/types/capability.js"
import { SSO_CONNECTIONS_PORT } from "./adapter.js"
import { ssoErrors } from "./errors.js"
import { addSsoDomain, createSsoConnection, deleteSsoConnection, listSsoConnections, updateSsoConnection, verifySsoDomain } from "./functions.js"
import { MAX_ACS_BODY_BYTES, ssoOption } from "./options.js"
import { SSO_RATE_LIMITS } from "./rate-limits.js"
import { ssoGet, ssoPost } from "./route.js"
import { ssoSignInType } from "./sign-in-type.js"

const problem = (message: string) => new Configuration(message, { code: "CONFIG_INVALID", cause: { option: "sso" } })

export const sso: Capability = {
  name: "sso",
  requires: ["organizations"],
  signInTypes: { sso: ssoSignInType },
  routes: [
    {
      action: "sso",
      answers: "page",
      withProvider: true,
      nested: true,
      GET: { handler: ssoGet, csrf: false, rateLimit: "sso.perClient" },
      POST: {
        handler: ssoPost,
        csrf: false,
        rateLimit: "sso.perClient",
        csrfBy: "the IdP's cross-site POST carries no CSRF token: the binding cookie (SameSite=None) names the AuthnRequest the Response must answer, and that request's single-use record is taken (acs.ts)",
        maxBodyBytes: MAX_ACS_BODY_BYTES,
      },
    },
  ],
  options: ssoOption,
  rateLimits: SSO_RATE_LIMITS,
  errors: ssoErrors,
  ports: { ssoConnections: SSO_CONNECTIONS_PORT },
  check(config) {
    const hasProvider = config.providers.some((p) => p.type === "sso")
    if (!config.sso) return hasProvider ? problem('An SSO() provider needs the "sso" option') : undefined
    if (!config.organizations) return problem('"sso" needs "organizations": each connection belongs to an organization')
    if (!config.appUrl) return problem('"sso" needs "url" (or WEBAUTH_URL): the SP entity ID and ACS URL the IdP checks are built from it, never from the request\'s Host')
    if (!hasProvider) return problem('"sso" needs an SSO() provider (from @authlib/providers/sso)')
    const missing = missingMethods(config.adapter, [...SSO_CONNECTIONS_PORT, "getUserByAccount", "getUserByEmail", "createVerificationToken", "useVerificationToken"])
    return missing.length ? missingError(missing, { what: '"sso"', otherwise: "or remove the option" }) : undefined
  },
}

/** Its server functions for the user of a request, by name. */
export const ssoFunctions = {
  createSsoConnection,
  listSsoConnections,
  updateSsoConnection,
  deleteSsoConnection,
  addSsoDomain,
  verifySsoDomain,
}
export { SsoError, SsoSignInError, SSO_ERROR_CODES, SSO_SIGN_IN_ERROR_CODES } from "./errors.js"
