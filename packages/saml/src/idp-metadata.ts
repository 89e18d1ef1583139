
import { hasStrongRsaKey, MIN_RSA_BITS, toCertificatePem } from "./certificates.js"
import { refuse } from "./errors.js"
import { attr, childElements, descendants, textOf } from "./xml/dom.js"
import { NS, SAML } from "./xml/namespaces.js"
import { parseUntrustedXml } from "./xml/parse.js"

/** What an SP needs from an IdP's metadata. */
export interface IdpMetadata {
  /** The IdP entity ID: the `Issuer` its Responses and assertions must carry. */
  entityId: string
  /** The `SingleSignOnService` location for the HTTP-Redirect binding. */
  ssoRedirectUrl: string
  /** The signing certificates (PEM), the only keys a Response is verified with. */
  certificates: string[]
}

/** Options of {@link parseIdpMetadata}. */
export interface ParseIdpMetadataOptions {
  /** Refuse larger documents before parsing; 1 MiB unless set. */
  maxBytes?: number
}

/**
 * Read an IdP's SAML 2.0 metadata (an `EntityDescriptor`, or an `EntitiesDescriptor` holding exactly one
 * IdP). The input is treated as hostile: size-limited before parsing (`METADATA_TOO_LARGE`), any DTD
 * refused (`DTD_REFUSED`); anything missing or ambiguous is a {@link SamlError} with code `MALFORMED`.
 * Certificates come from `KeyDescriptor`s whose `use` is `signing` or absent; a key that is not RSA of at
 * least 2048 bits is `ALGORITHM_REFUSED`.
 */
export function parseIdpMetadata(xml: string, options: ParseIdpMetadataOptions = {}): IdpMetadata {
  const maxBytes = options.maxBytes ?? 1024 * 1024
  if (typeof xml !== "string") throw new TypeError('"xml" must be a string')
  if (Buffer.byteLength(xml) > maxBytes) refuse("METADATA_TOO_LARGE", "IdP metadata is larger than allowed", { maxBytes })
  const root = parseUntrustedXml(xml, "IdP metadata").documentElement as Element
  const entity = idpEntity(root)
  const entityId = attr(entity, "entityID")
  if (!entityId) refuse("MALFORMED", "IdP metadata EntityDescriptor has no entityID")
  const descriptor = childElements(entity, NS.metadata, "IDPSSODescriptor")[0] as Element
  const redirect = childElements(descriptor, NS.metadata, "SingleSignOnService").find(
    (el) => attr(el, "Binding") === SAML.redirectBinding,
  )
  const ssoRedirectUrl = redirect && attr(redirect, "Location")
  if (!ssoRedirectUrl) refuse("MALFORMED", "IdP metadata has no SingleSignOnService with the HTTP-Redirect binding")
  return { entityId, ssoRedirectUrl, certificates: signingCertificates(descriptor) }
}

function idpEntity(root: Element): Element {
  const isEntity = (el: Element) => el.namespaceURI === NS.metadata && el.localName === "EntityDescriptor"
  const entities = isEntity(root) ? [root] : descendants(root, NS.metadata, "EntityDescriptor")
  const idps = entities.filter((el) => idpDescriptors(el).length > 0)
  if (idps.length !== 1) refuse("MALFORMED", "IdP metadata must describe exactly one IdP", { found: idps.length })
  const [idp] = idps as [Element]
  if (idpDescriptors(idp).length !== 1) refuse("MALFORMED", "IdP metadata must hold one SAML 2.0 IDPSSODescriptor")
  return idp
}

function idpDescriptors(entity: Element): Element[] {
  return childElements(entity, NS.metadata, "IDPSSODescriptor").filter((el) =>
    (attr(el, "protocolSupportEnumeration") ?? "").split(/\s+/).includes(NS.protocol),
  )
}

function signingCertificates(descriptor: Element): string[] {
  const pems = new Set<string>()
  for (const key of childElements(descriptor, NS.metadata, "KeyDescriptor")) {
    const use = attr(key, "use")
    if (use !== null && use !== "signing") continue
    for (const cert of descendants(key, NS.dsig, "X509Certificate")) {
      try {
        pems.add(toCertificatePem(textOf(cert)))
      } catch {
        refuse("MALFORMED", "IdP metadata holds a signing certificate that is not valid X.509")
      }
    }
  }
  if (pems.size === 0) refuse("MALFORMED", "IdP metadata has no signing certificate")
  if (![...pems].every(hasStrongRsaKey)) {
    refuse("ALGORITHM_REFUSED", `IdP metadata holds a signing key that is not RSA of at least ${MIN_RSA_BITS} bits`)
  }
  return [...pems]
}
