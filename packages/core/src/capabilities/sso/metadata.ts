/**
 * `GET {basePath}/sso/metadata/{connectionId}`: the connection's SP metadata (its entity ID is this
 * very URL), for the IdP's admin to import: the connection's certificate for signing and encryption,
 * its ACS URL. Public: it holds nothing secret.
 */
import type { AuthResponse, Context } from "../../kernel/types/http.js"
import { samlEngine } from "./engine.js"
import { refuse } from "./refusal.js"
import { connectionUrls, ssoOptions, ssoProvider, ssoStore } from "./store.js"

const ID = /^[A-Za-z0-9_-]{1,64}$/

export async function metadataRoute(ctx: Context, connectionId: string | undefined): Promise<AuthResponse> {
  ssoOptions(ctx)
  const connection = connectionId && ID.test(connectionId) ? await ssoStore(ctx).getSsoConnection(connectionId) : null
  if (!connection || connection.type !== "saml") return refuse(ctx, "CONNECTION_UNKNOWN")
  const engine = await samlEngine(ssoProvider(ctx))
  const urls = connectionUrls(ctx, connection.id)
  const xml = engine.serviceProviderMetadata({ entityId: urls.entityId, acsUrl: urls.acsUrl, certificatePem: connection.spCertificate! })
  return { text: { body: xml, type: "application/samlmetadata+xml; charset=utf-8" } }
}
