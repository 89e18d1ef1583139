/**
 * Which service provider the Demo SAML IdP answers: the demo's own SAML connection, at one of the
 * app's loopback origins (or `WEBAUTH_URL`'s, when it is loopback). An AuthnRequest's Issuer is the
 * SP entity ID, which authlib makes `{origin}{basePath}/sso/metadata/{connectionId}`; the IdP reads
 * that metadata in-process from authlib (`Auth`, no network) and keeps to it: its certificate checks
 * the request's signature, its ACS receives the answer. Any other issuer is unknown to the IdP.
 */
import { Auth, type AuthConfig } from "@authlib/core"
import type { QwikAuthConfig } from "@authlib/qwik"
import { isLoopbackHost } from "./local-only"
import { readSpMetadata, type SpMetadata } from "./saml-idp-sp-metadata"

export interface TrustOptions {
  /** The seeded connection's id, once the seed made it. */
  connectionId: () => string | undefined
  basePath: string
  /** `WEBAUTH_URL`, when set: then the only origin. */
  appUrl: string | undefined
  /** The app's configuration for requests from `origin`. */
  configFor: (origin: string) => Promise<QwikAuthConfig>
}

/** The IdP's `spFor`: the metadata behind `issuer`, or null when the IdP must not answer it. */
export function trustedSp(options: TrustOptions): (issuer: string) => Promise<SpMetadata | null> {
  return async (issuer) => {
    const id = options.connectionId()
    let url: URL
    try {
      url = new URL(issuer)
    } catch {
      return null
    }
    const origin = options.appUrl ? new URL(options.appUrl).origin : undefined
    const local = (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname) && (origin === undefined || url.origin === origin)
    if (!id || !local || url.href !== `${url.origin}${options.basePath}/sso/metadata/${id}`) return null
    const config = { ...(await options.configFor(url.origin)), url: url.origin, basePath: options.basePath } as AuthConfig
    // The IdP runs in this process, on loopback: its peer address for core's per-client rate limits.
    const res = await Auth(new Request(url), config, { clientAddress: "127.0.0.1" })
    if (res.status !== 200) return null
    const sp = readSpMetadata(await res.text())
    return sp.entityId === issuer ? sp : null
  }
}
