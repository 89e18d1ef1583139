/** The Demo IdP's issuer, when the demo offers it (loopback only). Server-only: the account page's loaders ask. */
export async function idpIssuer(env: { get(name: string): string | undefined }): Promise<string | undefined> {
  const { demoAuthConfig } = await import("./auth-config")
  const config = await demoAuthConfig(env)
  const idp = config.providers.map((p) => (typeof p === "function" ? p() : p)).find((p) => p.id === "demo-idp") as { issuer?: string } | undefined
  return idp?.issuer
}
