/**
 * Every value from outside that SSO management takes, checked before any store call: ids, domains,
 * URLs, PEM certificates, the connection input.
 */
import { SsoError } from "./errors.js"

const ID = /^[A-Za-z0-9_-]{1,64}$/
/** A host name of two labels or more, lowercase letters, digits and hyphens (IDNs in their `xn--` form). */
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const MAX_TEXT = 2048
const MAX_METADATA = 1024 * 1024

/** A connection id's shape; anything else is an unknown connection. */
export function connectionIdOf(value: unknown): string {
  if (typeof value !== "string" || !ID.test(value)) throw new SsoError("No such SSO connection", { code: "CONNECTION_UNKNOWN" })
  return value
}

/** A domain as the organization types it, lowercased (`Acme.COM.` -> `acme.com`). */
export function domainOf(value: unknown): string {
  const domain = typeof value === "string" ? value.trim().toLowerCase().replace(/\.$/, "") : ""
  if (!DOMAIN.test(domain)) throw new SsoError("That domain is not valid", { code: "DOMAIN_INVALID" })
  return domain
}

/** An https URL (http only on loopback, for tests and local IdPs). */
export function urlOf(value: unknown, field: string): string {
  let url: URL
  try {
    if (typeof value !== "string" || value.length > MAX_TEXT) throw new TypeError()
    url = new URL(value)
  } catch {
    throw new SsoError(`"${field}" must be a URL`, { code: "CONNECTION_INVALID", cause: { field } })
  }
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]"
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) throw new SsoError(`"${field}" must be an https URL`, { code: "CONNECTION_INVALID", cause: { field } })
  return url.href
}

/** A non-empty string of at most 2048 characters. */
export function textOf(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "" || value.length > MAX_TEXT) throw new SsoError(`"${field}" must be a non-empty string`, { code: "CONNECTION_INVALID", cause: { field } })
  return value.trim()
}

/** IdP metadata XML (parsed by the engine, which refuses DTDs and oversize input itself). */
export function metadataOf(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_METADATA) throw new SsoError('"idpMetadataXml" must be the IdP\'s metadata XML', { code: "METADATA_INVALID" })
  return value
}

/** A PEM certificate (or its base64 body): kept as given, checked by the engine on each use. */
export function certificateOf(value: unknown): string {
  if (typeof value !== "string" || value.length < 100 || value.length > 16384 || !/^[-A-Za-z0-9+/=\s]+$/.test(value))
    throw new SsoError('"idpCertificate" must be a PEM certificate', { code: "CONNECTION_INVALID", cause: { field: "idpCertificate" } })
  return value.trim()
}

const MAX_ADDRESS = 320

/** The domain of an address, lowercased; undefined for anything that is not one. */
export function domainOfAddress(email: unknown): string | undefined {
  if (typeof email !== "string" || email.length > MAX_ADDRESS) return undefined
  const at = email.lastIndexOf("@")
  const domain = email.slice(at + 1).trim().toLowerCase()
  return at > 0 && domain.length > 0 && !/[\s@]/.test(domain) ? domain : undefined
}
