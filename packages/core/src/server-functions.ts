/**
 * Every server function of core that acts for the user of a request, by name, in one typed map:
 * each capability's, as its `index.ts` declares them. A binding wraps the whole map with one
 * generic adapter (`@authlib/qwik`, `@authlib/core/node`), and its tests compare its exports with
 * the map's keys, so a new server function cannot be left out of a binding.
 */
import { linkedAccountsFunctions } from "./capabilities/linked-accounts/index.js"
import { organizationsFunctions } from "./capabilities/organizations/index.js"
import { passkeyManagementFunctions } from "./capabilities/passkey-management/index.js"
import { providerTokensFunctions } from "./capabilities/provider-tokens/index.js"
import { sessionManagementFunctions } from "./capabilities/session-management/index.js"
import { ssoFunctions } from "./capabilities/sso/index.js"
import { twoFactorFunctions } from "./capabilities/two-factor/index.js"
import { forRequests } from "./registry.js"

/**
 * Core's server functions of the one shape (`ServerFunction`), by name, each bound to the registry
 * (`forRequests`): the root entry exports these very functions, and the bindings wrap them.
 */
export const serverFunctions = /*#__PURE__*/ Object.freeze(
  forRequests({
    ...passkeyManagementFunctions,
    ...providerTokensFunctions,
    ...sessionManagementFunctions,
    ...linkedAccountsFunctions,
    ...twoFactorFunctions,
    ...organizationsFunctions,
    ...ssoFunctions,
  }),
)

/** The type of `serverFunctions`: each name with its parameter and result types. */
export type ServerFunctions = typeof serverFunctions
