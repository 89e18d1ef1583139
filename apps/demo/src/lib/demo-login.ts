/** The demo account, shown on the sign-in page (its password is stored only as a scrypt hash). */
export const DEMO_LOGIN = { email: "ada@example.com", password: "correct-horse-battery" }

/** The Demo IdP's accounts (user name -> profile); they share one demo password. */
export const IDP_ACCOUNTS: Record<string, { name: string; email: string }> = {
  grace: { name: "Grace Hopper", email: "grace.hopper@idp.demo" },
  alan: { name: "Alan Turing", email: "alan.turing@idp.demo" },
}
export const IDP_PASSWORD = "idp-demo"
