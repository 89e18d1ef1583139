/** The XML namespaces SAML 2.0 messages use; elements are matched by namespace and local name, never by prefix. */
export const NS = {
  protocol: "urn:oasis:names:tc:SAML:2.0:protocol",
  assertion: "urn:oasis:names:tc:SAML:2.0:assertion",
  metadata: "urn:oasis:names:tc:SAML:2.0:metadata",
  dsig: "http://www.w3.org/2000/09/xmldsig#",
  xenc: "http://www.w3.org/2001/04/xmlenc#",
} as const

/** SAML URIs used in messages this package reads and writes. */
export const SAML = {
  success: "urn:oasis:names:tc:SAML:2.0:status:Success",
  bearer: "urn:oasis:names:tc:SAML:2.0:cm:bearer",
  emailAddress: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  redirectBinding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect",
  postBinding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
} as const
