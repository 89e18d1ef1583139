/**
 * The SSO provider's config (`type: "sso"`), added to the kernel's provider types by declaration
 * merging, and the SAML engine it carries: `@authlib/saml`'s functions, loaded by the provider
 * (`@authlib/providers/sso`), so core never imports the engine and stays runtime-neutral.
 */
import type { CommonProviderOptions } from "../../kernel/types/providers.js"
import type { ResolveTxt } from "./options.js"

/** The engine functions the `sso` capability calls (those of `@authlib/saml`). */
export interface SamlEngine {
  generateServiceProviderKeys(options: { commonName: string }): Promise<{ privateKeyPem: string; certificatePem: string }>
  parseIdpMetadata(xml: string): { entityId: string; ssoRedirectUrl: string; certificates: string[] }
  serviceProviderMetadata(options: { entityId: string; acsUrl: string; certificatePem: string }): string
  createAuthnRequest(options: {
    sp: { entityId: string; privateKeyPem: string }
    idp: { ssoRedirectUrl: string }
    acsUrl: string
    requestId?: string
    relayState?: string
    now?: Date
  }): { id: string; url: string }
  verifySamlResponse(options: {
    samlResponse: string
    sp: { entityId: string; acsUrl: string; privateKeyPem: string }
    idp: { entityId: string; certificates: readonly string[] }
    expectedRequestId: string | null
    allowIdpInitiated?: boolean
    maxResponseBytes?: number
    now?: Date
  }): Promise<{
    assertionId: string
    nameId: string
    email: string | null
    attributes: Record<string, string[]>
    authnContextClassRef: string | null
    notOnOrAfter: Date
    inResponseTo: string | null
  }>
}

/**
 * The enterprise SSO provider: one provider serves every organization's connection. Build it with
 * `SSO()` from `@authlib/providers/sso`; the fields below are what core reads.
 */
export interface SsoConfig extends CommonProviderOptions {
  type: "sso"
  /** Loads the SAML engine (`@authlib/saml`), called once, on the first SAML request. */
  saml: () => Promise<SamlEngine>
  /** The TXT lookup used when `sso.resolveTxt` is not set (`SSO()`: `node:dns/promises`). */
  resolveTxt?: ResolveTxt
}

declare module "../../kernel/types/model.js" {
  interface CapabilityProviderTypes {
    sso: SsoConfig
  }
}
