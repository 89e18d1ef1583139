/**
 * An app with enterprise SSO for the tests: core's `Auth` with organizations, `sso` and the `SSO()`
 * provider on a `MemoryAdapter` (or any adapter), an admin who signs in with a password to manage
 * connections, TXT records the test publishes, and a browser-like client that follows the SAML
 * sign-in: it starts at `POST signin/sso`, reads the AuthnRequest the IdP would receive, and posts
 * the IdP's answer to the ACS as a cross-site form (Origin of the IdP, no CSRF token).
 */
import { inflateRawSync } from "node:zlib"
import { Auth, addSsoDomain, createOrganization, createSsoConnection, verifySsoDomain, type Adapter, type AuthConfig, type SsoConnection } from "@authlib/core"
import { fields, type ResponseFields } from "@authlib/e2e-kit/saml/idp"
import Credentials from "../../src/credentials.js"
import SSO from "../../src/sso.js"
import { Client, ORIGIN, SECRET } from "../helpers.js"

export const IDP_ORIGIN = "https://idp.example"

/** The TXT records the test "publishes", by name. */
export type TxtRecords = Map<string, string[][]>

export interface SsoApp {
  config: AuthConfig
  /** The adapter the config was made with, every method present (MemoryAdapter, XataAdapter). */
  adapter: Required<Adapter>
  txt: TxtRecords
  /** The admin's client, signed in. */
  admin: Client
  /** A request carrying the admin's cookies, for the server functions. */
  adminRequest(): Request
}

/** The app's config over `adapter`; `adminId` must be a stored user. */
export function ssoConfig(adapter: Adapter, txt: TxtRecords, over: Partial<AuthConfig> = {}): AuthConfig {
  return {
    url: ORIGIN,
    secret: SECRET,
    adapter,
    trustHost: true,
    session: { strategy: "jwt" },
    organizations: { sendInvitation: () => {} },
    sso: { resolveTxt: async (name) => txt.get(name) ?? [] },
    // Refusals are logged as warnings: the tests read their codes from the answers.
    logger: { warn: () => {} },
    providers: [
      // The admin, or (for tests of who may manage) any stored user by id with the users' password.
      Credentials({
        authorize: async (c) =>
          c.password === "admin-password" ? { id: "admin-1", email: "admin@acme.test", name: "Admin" } : c.password === "user-password" && typeof c.user === "string" ? { id: c.user } : null,
      }),
      SSO(),
    ],
    ...over,
  } as AuthConfig
}

/** Signs the admin in (a stored user `admin-1`) at `origin` (the app's `url`) and returns the app. */
export async function startApp(adapter: Required<Adapter>, over: Partial<AuthConfig> = {}, origin = ORIGIN): Promise<SsoApp> {
  if (!(await adapter.getUser("admin-1"))) await adapter.createUser({ id: "admin-1", email: "admin@acme.test", emailVerified: new Date(), name: "Admin" })
  const txt: TxtRecords = new Map()
  const config = ssoConfig(adapter, txt, { url: origin, ...over })
  const admin = new Client(config, origin)
  const signedIn = await admin.post("/auth/callback/credentials", { password: "admin-password" })
  if (signedIn.status !== 302 || !signedIn.headers.get("location")?.startsWith(origin)) throw new Error(`admin sign-in failed: ${signedIn.status}`)
  const adminRequest = () => {
    const headers = new Headers()
    admin.jar.apply(headers, new URL(origin))
    return new Request(`${origin}/app/admin`, { headers })
  }
  return { config, adapter, txt, admin, adminRequest }
}

/** The entity ID of the Acme test IdP (`acmeIdp`). */
export const IDP = "https://idp.acme.test/saml2/idp/metadata.php"

/** The Acme test IdP whose signing certificate is `certificatePem`, as `samlOrganization` takes it. */
export const acmeIdp = (certificatePem: string) => ({ entityId: IDP, ssoUrl: "https://idp.acme.test/sso", certificatePem })

/** An organization with a SAML connection to `idp` and `domains` verified for it. */
export async function samlOrganization(
  app: SsoApp,
  slug: string,
  idp: { entityId: string; ssoUrl: string; certificatePem: string },
  domains: string[],
): Promise<{ organizationId: string; connection: SsoConnection }> {
  const organization = await createOrganization(app.adminRequest(), app.config, { name: slug, slug })
  const connection = await createSsoConnection(app.adminRequest(), app.config, organization.id, { type: "saml", entryPoint: idp.ssoUrl, idpCertificate: idp.certificatePem, idpEntityId: idp.entityId })
  for (const domain of domains) await verifiedDomain(app, connection.id, domain)
  return { organizationId: organization.id, connection }
}

/** `domain` added to connection `connectionId`, its TXT record published and verified (throws when it does not verify). */
export async function verifiedDomain(app: SsoApp, connectionId: string, domain: string): Promise<void> {
  const added = await addSsoDomain(app.adminRequest(), app.config, connectionId, domain)
  app.txt.set(added.record.name, [[added.record.value]])
  const verified = await verifySsoDomain(app.adminRequest(), app.config, connectionId, domain)
  if (!verified.verified) throw new Error(`domain ${domain} not verified`)
}

/** What the browser carries to the IdP: the redirect URL and the AuthnRequest's ID. */
export interface Started {
  url: URL
  requestId: string
}

/** `POST signin/sso` with `email` (or `organization`): the IdP redirect and the request ID inside it. */
export async function startSignIn(client: Client, form: Record<string, string>): Promise<Started> {
  const res = await client.post("/auth/signin/sso", form)
  const location = res.headers.get("location")
  if (res.status !== 302 || !location) throw new Error(`sign-in start answered ${res.status}`)
  const url = new URL(location)
  const samlRequest = url.searchParams.get("SAMLRequest")
  if (!samlRequest) throw new Error(`not an IdP redirect: ${location}`)
  const xml = inflateRawSync(Buffer.from(samlRequest, "base64")).toString("utf8")
  return { url, requestId: /\bID="([^"]+)"/.exec(xml)![1]! }
}

/** The IdP's cross-site form POST of `samlResponse` (base64) to the ACS of `connectionId`, from `client`'s browser. */
export async function postToAcs(client: Client, connectionId: string, samlResponse: string, config: AuthConfig = client.config, relayState = ""): Promise<Response> {
  const url = new URL(`/auth/sso/acs/${connectionId}`, ORIGIN)
  const headers = new Headers({ origin: IDP_ORIGIN, "content-type": "application/x-www-form-urlencoded" })
  client.jar.apply(headers, url)
  const body = new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString()
  return client.jar.keep(await Auth(new Request(url, { method: "POST", headers, body }), config), url)
}

/** Response fields for `connection` answering `inResponseTo` (`null`: unsolicited), valid now (the saml package's test IdP). */
export function answerFor(connection: SsoConnection, inResponseTo: string | null, over: Partial<ResponseFields> = {}): ResponseFields {
  const now = Date.now()
  return fields({
    destination: connection.acsUrl!, recipient: connection.acsUrl!, audience: connection.spEntityId!, responseIssuer: connection.idpEntityId!, assertionIssuer: connection.idpEntityId!,
    inResponseTo, notBefore: new Date(now - 30_000), notOnOrAfter: new Date(now + 300_000), confirmationNotOnOrAfter: new Date(now + 300_000),
    ...over,
  })
}

/** A request of `client`'s browser to the app (its cookies), for the server functions. */
export function appRequest(client: Client, origin = ORIGIN): Request {
  const headers = new Headers()
  client.jar.apply(headers, new URL(origin))
  return new Request(`${origin}/app`, { headers })
}

/** The error page's `code` of a refusal (asserting it is an `SsoSignInError`). */
export function refusalCode(res: Response): string | null {
  const location = res.headers.get("location")
  if (res.status !== 302 || !location) return null
  const url = new URL(location)
  if (url.pathname !== "/auth/error" || url.searchParams.get("error") !== "SsoSignInError") return null
  return url.searchParams.get("code")
}
