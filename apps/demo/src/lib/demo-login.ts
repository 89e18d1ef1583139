/** The demo account, shown on the sign-in page (its password is stored only as a scrypt hash). */
export const DEMO_LOGIN = { email: "ada@example.com", password: "correct-horse-battery" }

/** The Demo IdP's accounts (user name -> profile); they share one demo password. */
export const IDP_ACCOUNTS: Record<string, { name: string; email: string }> = {
  grace: { name: "Grace Hopper", email: "grace.hopper@idp.demo" },
  alan: { name: "Alan Turing", email: "alan.turing@idp.demo" },
}
export const IDP_PASSWORD = "idp-demo"

/**
 * Enterprise SSO in the demo: the organization seeded at start, its e-mail domain (verified for its
 * SAML connection), and the people the Demo SAML IdP offers. Ada's sign-in says MFA (REFEDS MFA
 * context class), Grace's a password only.
 */
export const SSO_DEMO = {
  organization: { name: "Acme Corp", slug: "acme-corp" },
  domain: "acme.test",
} as const

export const SAML_IDP_PEOPLE: Record<string, { name: string; mfa: boolean }> = {
  "ada@acme.test": { name: "Ada Lovelace", mfa: true },
  "grace@acme.test": { name: "Grace Hopper", mfa: false },
}
