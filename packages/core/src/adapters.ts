/**
 * `@authlib/core/adapters`: the adapter contract's types, as `@auth/core/adapters` offers them (an
 * Auth.js adapter's imports move by changing the scope), and authlib's named ports.
 * @module
 */
export type {
  Adapter, AdapterAccount, AdapterAccountType, AdapterAuthenticator, AdapterSession,
  AdapterUser, AdapterPortName, SessionMetadata, VerificationToken
} from "./index.js"
export { ADAPTER_PORTS } from "./index.js"
// A capability's port types, one line each (the registry test leaves a capability out by its lines).
export type { AdapterTwoFactor } from "./index.js"
export type { AdapterOrganization, AdapterOrganizationInvitation, AdapterOrganizationMember, AdapterOrganizationMemberWithUser, AdapterOrganizationWithRole } from "./index.js"
