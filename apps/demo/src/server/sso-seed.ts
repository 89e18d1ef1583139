/**
 * The demo's enterprise SSO data, made at every start through authlib's public server functions, as
 * an organization's admin would: the organization "Acme Corp", a SAML connection to the Demo SAML
 * IdP (its metadata: a new certificate and port every start, so an existing connection is updated),
 * and the domain `acme.test` added and verified (the TXT record it asks for is "published" by the
 * demo's `sso.resolveTxt`, auth-config.ts).
 *
 * The admin is the organization's owner, "Acme IT" (`it@acme.test`, a stored user with no way to sign
 * in). The server functions act for the user of a request's session, so the seed signs them in
 * in-process, under a configuration of its own: the app's, with JWT sessions (nothing stored) and
 * one extra credentials provider that accepts a random secret made for this start only. That
 * configuration is never served: no request from outside reaches its provider.
 */
import { randomBytes, timingSafeEqual } from "node:crypto"
import { Auth, addSsoDomain, createOrganization, createSsoConnection, listOrganizations, listSsoConnections, updateSsoConnection, verifySsoDomain, type AuthConfig } from "@authlib/core"
import Credentials from "@authlib/providers/credentials"
import SSO from "@authlib/providers/sso"
import type { QwikAuthConfig } from "@authlib/qwik"
import { SSO_DEMO } from "../lib/demo-login"

const OWNER = { id: "demo-acme-it", name: "Acme IT", email: `it@${SSO_DEMO.domain}` } as const
/** The one credential of the seed's provider: made per process, never shown nor stored. */
const seedSecret = randomBytes(32).toString("base64url")

/** What the seed needs from the app. */
export interface SsoSeedInput {
  /** The app's configuration (adapter, secret, organizations, sso). */
  base: QwikAuthConfig
  /** An origin of the app (the SP certificate's name is made from it; the SP URLs follow each request's origin). */
  origin: string
  basePath: string
  /** The IdP's metadata, for the connection. */
  idpMetadataXml: string
  /** Publishes the TXT record core asks for, before the domain is verified. */
  publish: (name: string, value: string) => void
}

/** The stored owner, created on the first start. */
async function ensureOwner(adapter: AuthConfig["adapter"]): Promise<void> {
  if (!adapter?.getUser || !adapter.createUser) throw new Error("the demo's adapter cannot store users")
  if (!(await adapter.getUser(OWNER.id))) await adapter.createUser({ ...OWNER, emailVerified: new Date() })
}

/** The cookies of `res` as a `Cookie` header, added to `jar`. */
function keep(jar: Map<string, string>, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair = ""] = line.split(";")
    const eq = pair.indexOf("=")
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
  }
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ")

/** The seed's requests come from this process: a loopback peer for core's per-client rate limits. */
const FROM_HERE = { clientAddress: "127.0.0.1" }

/** Signs the owner in under `config` through core's own routes (CSRF token, credentials callback); answers a request maker carrying the session. */
async function ownerSession(config: AuthConfig, origin: string, basePath: string): Promise<() => Request> {
  const jar = new Map<string, string>()
  const csrf = await Auth(new Request(`${origin}${basePath}/csrf`), config, FROM_HERE)
  keep(jar, csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const signedIn = await Auth(
    new Request(`${origin}${basePath}/callback/demo-seed`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin, cookie: cookieHeader(jar) },
      body: new URLSearchParams({ csrfToken, secret: seedSecret, callbackUrl: origin }),
    }),
    config,
    FROM_HERE,
  )
  keep(jar, signedIn)
  if (signedIn.status !== 302 || new URL(signedIn.headers.get("location") ?? "", origin).searchParams.has("error")) throw new Error(`the SSO seed could not sign its owner in (${signedIn.status})`)
  return () => new Request(`${origin}/`, { headers: { cookie: cookieHeader(jar) } })
}

function seedConfig(input: SsoSeedInput): AuthConfig {
  const expected = Buffer.from(seedSecret)
  return {
    ...input.base,
    url: input.origin,
    basePath: input.basePath,
    session: { strategy: "jwt" },
    // No passkeys here: the app's configuration says WebAuthn's warning when it first serves.
    experimental: {},
    providers: [
      Credentials({
        id: "demo-seed",
        credentials: { secret: { type: "password" } },
        authorize: (c) => {
          const given = Buffer.from(String(c.secret ?? ""))
          return given.length === expected.length && timingSafeEqual(given, expected) ? { ...OWNER } : null
        },
      }),
      SSO(),
    ],
  } as AuthConfig
}

/** Makes (or brings up to date) the organization, its SAML connection and its verified domain; answers the connection's id. */
export async function seedSsoOrganization(input: SsoSeedInput): Promise<string> {
  const config = seedConfig(input)
  await ensureOwner(config.adapter)
  const req = await ownerSession(config, input.origin, input.basePath)
  const { name, slug } = SSO_DEMO.organization
  const organization = (await listOrganizations(req(), config)).find((o) => o.slug === slug) ?? (await createOrganization(req(), config, { name, slug }))
  const existing = (await listSsoConnections(req(), config, organization.id)).find((c) => c.type === "saml")
  const connection = existing
    ? await updateSsoConnection(req(), config, existing.id, { idpMetadataXml: input.idpMetadataXml })
    : await createSsoConnection(req(), config, organization.id, { type: "saml", idpMetadataXml: input.idpMetadataXml })
  const domain = await addSsoDomain(req(), config, connection.id, SSO_DEMO.domain)
  input.publish(domain.record.name, domain.record.value)
  if (!domain.verified && !(await verifySsoDomain(req(), config, connection.id, SSO_DEMO.domain)).verified) {
    throw new Error(`the SSO seed could not verify ${SSO_DEMO.domain} (is it verified for another organization in this database?)`)
  }
  return connection.id
}
