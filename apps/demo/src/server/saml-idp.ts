/**
 * "Demo SAML IdP": a small SAML 2.0 identity provider started beside the app on 127.0.0.1 (as the
 * OpenID Demo IdP is), so the demo shows enterprise SSO with nothing installed (no PHP). Development
 * only: it listens on loopback, is offered only while the app's URL is loopback (auth-config.ts),
 * and answers only the SP it was told to trust. Its key pair and certificate are made at start and
 * never stored. Under `/demo-saml-idp`:
 *
 * - `GET metadata`: its metadata (entity ID, signing certificate, HTTP-Redirect SSO service);
 * - `GET sso?SAMLRequest=…&SigAlg=…&Signature=…`: a signed AuthnRequest (saml-idp-request.ts) is
 *   answered with a page to pick a demo person;
 * - `POST sso/answer`: the person picked; answered with a form that posts the signed Response
 *   (saml-idp-response.ts) to the SP's ACS, by itself when scripts run.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { randomBytes } from "node:crypto"
import { generateServiceProviderKeys } from "@authlib/saml"
import { SAML_IDP_PEOPLE } from "../lib/demo-login"
import { escape } from "./escape"
import { page } from "./idp-pages"
import { readAuthnRequest, type AcceptedAuthnRequest } from "./saml-idp-request"
import { idpMetadata, signedResponse, type SamlIdpIdentity } from "./saml-idp-response"
import type { SpMetadata } from "./saml-idp-sp-metadata"
import { SamlIdpRefusal } from "./saml-idp-xml"

const PREFIX = "/demo-saml-idp"
const BRAND = "Demo SAML IdP"
/** A request waits this long for the person to be picked, then is forgotten. */
const PENDING_MS = 5 * 60 * 1000
const MAX_PENDING = 500

/** The started IdP. */
export interface SamlIdp {
  entityId: string
  ssoUrl: string
  metadataXml: string
}

/** What the IdP needs from the app: the metadata of the SP behind an AuthnRequest's Issuer, or null when it is not trusted. */
export interface SamlIdpOptions {
  spFor: (issuer: string) => Promise<SpMetadata | null>
}

let started: Promise<SamlIdp> | undefined

/** Pending AuthnRequests by an unguessable handle, each answered at most once. */
class Pending {
  private readonly items = new Map<string, { request: AcceptedAuthnRequest; expiresAt: number }>()
  add(request: AcceptedAuthnRequest): string {
    const now = Date.now()
    for (const [handle, item] of this.items) if (item.expiresAt <= now || this.items.size >= MAX_PENDING) this.items.delete(handle)
    const handle = randomBytes(32).toString("base64url")
    this.items.set(handle, { request, expiresAt: now + PENDING_MS })
    return handle
  }
  take(handle: string): AcceptedAuthnRequest | undefined {
    const item = this.items.get(handle)
    this.items.delete(handle)
    return item && item.expiresAt > Date.now() ? item.request : undefined
  }
}

/**
 * The SAMLRequest is in the picker's URL: no Referer carries it to another origin ("same-origin",
 * not "no-referrer", which would make the picker's own POST say `Origin: null`).
 */
function send(res: ServerResponse, status: number, html: string, csp: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "content-security-policy": csp,
  })
  res.end(html)
}

const BASE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"

function refused(res: ServerResponse, status: number, why: string): void {
  send(res, status, page("Request refused", `<h1>Request refused</h1><p class="alert" role="alert">${escape(why)}</p><p>Start again from the app's sign-in page.</p>`, BRAND), `${BASE_CSP}; form-action 'none'`)
}

function pickerPage(handle: string, sp: SpMetadata): string {
  const people = Object.entries(SAML_IDP_PEOPLE)
    .map(([email, p]) => `<button type="submit" name="person" value="${escape(email)}">${escape(p.name)} · ${escape(email)}${p.mfa ? " (with MFA)" : ""}</button>`)
    .join("\n")
  return page(
    "Choose a person",
    `<h1>Who signs in?</h1><p>to <code>${escape(new URL(sp.acsUrl).host)}</code> (a signed request, checked with its metadata's certificate)</p>
<form method="post" action="${PREFIX}/sso/answer"><input type="hidden" name="request" value="${escape(handle)}">
${people}</form>
<p>A demo IdP: no password. Ada's sign-in says MFA, Grace's a password only.</p>`,
    BRAND,
  )
}

/** The HTTP-POST binding: a form to the ACS, submitted by a script the page's CSP allows by its nonce. */
function postPage(sp: SpMetadata, samlResponse: string, relayState: string | null, nonce: string): string {
  return page(
    "Signing you in",
    `<h1>Signing you in…</h1>
<form method="post" action="${escape(sp.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${escape(samlResponse)}">
${relayState === null ? "" : `<input type="hidden" name="RelayState" value="${escape(relayState)}">`}
<button type="submit">Continue</button></form>
<script nonce="${nonce}">document.forms[0].submit()</script>`,
    BRAND,
  )
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  let body = ""
  for await (const chunk of req) {
    body += String(chunk)
    if (body.length > 4096) return undefined
  }
  return new URLSearchParams(body)
}

function handler(identity: SamlIdpIdentity, origin: string, metadataXml: string, options: SamlIdpOptions) {
  const pending = new Pending()
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", origin)
    if (req.method === "GET" && url.pathname === `${PREFIX}/metadata`) {
      res.writeHead(200, { "content-type": "application/samlmetadata+xml", "cache-control": "no-store" }).end(metadataXml)
      return
    }
    if (req.method === "GET" && url.pathname === `${PREFIX}/sso`) {
      // The query exactly as sent: the signature covers its bytes, which URL parsing may re-encode.
      const raw = req.url ?? ""
      const query = raw.includes("?") ? raw.slice(raw.indexOf("?") + 1) : ""
      const request = await readAuthnRequest(query, identity.ssoUrl, options.spFor)
      send(res, 200, pickerPage(pending.add(request), request.sp), `${BASE_CSP}; form-action 'self'`)
      return
    }
    if (req.method === "POST" && url.pathname === `${PREFIX}/sso/answer`) {
      // The person picker is this IdP's own page: a form posted from anywhere else is refused.
      if (req.headers.origin !== origin) return refused(res, 403, "This form is only accepted from the IdP's own page.")
      const form = await formOf(req)
      const request = pending.take(form?.get("request") ?? "")
      const email = form?.get("person") ?? ""
      const person = Object.hasOwn(SAML_IDP_PEOPLE, email) ? SAML_IDP_PEOPLE[email] : undefined
      if (!request || !person) return refused(res, 400, "This sign-in request expired, was already answered, or names no demo person.")
      const samlResponse = signedResponse({ idp: identity, sp: request.sp, inResponseTo: request.id, person: { email, ...person } })
      const nonce = randomBytes(16).toString("base64")
      send(res, 200, postPage(request.sp, samlResponse, request.relayState, nonce), `${BASE_CSP}; script-src 'nonce-${nonce}'; form-action ${new URL(request.sp.acsUrl).origin}`)
      return
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("Not found")
  }
}

async function listen(port: number, options: SamlIdpOptions): Promise<SamlIdp> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", resolve)
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // @authlib/saml's helper makes an RSA key and a self-signed certificate (for an SP; an IdP's is the same kind).
  const keys = await generateServiceProviderKeys({ commonName: "demo-saml-idp.localhost", modulusLength: 2048 })
  const identity: SamlIdpIdentity = { entityId: `${origin}${PREFIX}/metadata`, ssoUrl: `${origin}${PREFIX}/sso`, privateKeyPem: keys.privateKeyPem, certificatePem: keys.certificatePem }
  const metadataXml = idpMetadata(identity)
  const handle = handler(identity, origin, metadataXml, options)
  server.on("request", (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.end()
      if (err instanceof SamlIdpRefusal) return refused(res, 400, `The IdP refused this sign-in request: ${err.message}.`)
      console.error("[demo-saml-idp]", err)
      refused(res, 500, "The IdP could not answer this request.")
    })
  })
  return { entityId: identity.entityId, ssoUrl: identity.ssoUrl, metadataXml }
}

/** Starts the IdP once per process (`DEMO_SAML_IDP_PORT`, default a free port on 127.0.0.1). */
export function startSamlIdp(env: { get(name: string): string | undefined }, options: SamlIdpOptions): Promise<SamlIdp> {
  started ??= listen(Number(env.get("DEMO_SAML_IDP_PORT") ?? 0), options).catch((err: unknown) => {
    started = undefined
    throw err
  })
  return started
}
