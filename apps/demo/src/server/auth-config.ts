/**
 * The demo's authlib configuration, built once per process from the environment: embedded
 * defaults for everything (database, mail server), so the demo runs with nothing configured.
 *
 * `AUTH_SESSION_STRATEGY`: `jwt` (default: an encrypted cookie) or `database` (a session record in
 * PGlite, the cookie holding only its token). The app's own sign-in page is /sign-in/, where every
 * sign-in error lands too (`pages.error`); core's built-in sign-in, sign-out and verify-request
 * pages stay reachable under /auth.
 */
import type { QwikAuthConfig } from "@authlib/qwik"
import { allowInsecureOAuthRequests, type Provider, type RateLimitStore } from "@authlib/core"
import Credentials from "@authlib/providers/credentials"
import GitHub from "@authlib/providers/github"
import GitLab from "@authlib/providers/gitlab"
import Google from "@authlib/providers/google"
import Nodemailer from "@authlib/providers/nodemailer"
import OIDC from "@authlib/providers/oidc"
import Passkey from "@authlib/providers/passkey"
import SSO from "@authlib/providers/sso"
import { demoDatabase, type DemoDatabase } from "./database"
import { IDP_CLIENT, startIdp } from "./idp"
import { startInbox } from "./inbox"
import { invitationSender } from "./invitations"
import { isLoopbackHost } from "./local-only"
import { startSamlIdp } from "./saml-idp"
import { trustedSp } from "./saml-idp-trust"
import { demoSecret } from "./secret"
import { seedSsoOrganization } from "./sso-seed"
import { demoUsers, findUser } from "./users"

type Env = { get(name: string): string | undefined }

let built: Promise<QwikAuthConfig> | undefined

function passwordProvider() {
  return Credentials({
    id: "password",
    name: "Email and password",
    credentials: {
      email: { label: "Email", type: "email", autocomplete: "username" },
      password: { label: "Password", type: "password", autocomplete: "current-password" },
    },
    authorize: async (c) => findUser(String(c.email ?? ""), String(c.password ?? "")),
  })
}

function demoIdpProvider(issuer: string) {
  return OIDC({
    id: "demo-idp", name: "Demo IdP", issuer, clientId: IDP_CLIENT.id, clientSecret: IDP_CLIENT.secret,
    // The Demo IdP runs on loopback without TLS, which oauth4webapi refuses unless the provider is marked.
    [allowInsecureOAuthRequests]: true,
  })
}

/** `twoFactor.freshAge` from `AUTH_TWO_FACTOR_FRESH_AGE`, when it is a whole number of seconds (core checks the range). */
function freshAge(env: Env): { freshAge?: number } {
  const raw = env.get("AUTH_TWO_FACTOR_FRESH_AGE")
  return raw && /^\d+$/.test(raw) ? { freshAge: Number(raw) } : {}
}

/** Real providers join when their credentials are in the environment (`AUTH_GITHUB_ID`/`_SECRET`...). */
function realProviders(env: Env): Provider[] {
  const presets = { GITHUB: GitHub, GOOGLE: Google, GITLAB: GitLab }
  return Object.entries(presets)
    .filter(([stem]) => env.get(`AUTH_${stem}_ID`) && env.get(`AUTH_${stem}_SECRET`))
    .map(([, preset]) => preset())
}

/**
 * Passkeys belong to a domain name: with `WEBAUTH_URL` the relying party is its host; without it
 * the demo runs on loopback and the relying party is `localhost` on the port the browser used
 * (the server answers loopback Host names only). At http://127.0.0.1:3000 browsers refuse
 * passkeys: use http://localhost:3000.
 */
function passkeyProvider(env: Env) {
  if (env.get("WEBAUTH_URL")) return Passkey({ name: "Passkey" })
  return Passkey({
    name: "Passkey",
    getRelyingParty: ({ url }) => ({ id: "localhost", name: "authlib demo", origin: `http://localhost:${url.port || "80"}` }),
  })
}

/**
 * The password users live in the app's user table too (the adapter's), with the ids `authorize`
 * returns: a passkey is stored against a user, and under JWT sessions a credentials sign-in stores
 * nobody by itself. Their addresses are the demo's own (mail to them lands in its inbox), so they are
 * stored as verified: an e-mail link to them is a real way in. A user whose e-mail is already taken
 * (an older data folder) is left as it is.
 */
async function storeDemoUsers(adapter: DemoDatabase["adapter"]): Promise<void> {
  const { getUser, getUserByEmail, createUser } = adapter
  if (!getUser || !getUserByEmail || !createUser) return
  for (const user of demoUsers()) {
    if ((await getUser(user.id)) || (await getUserByEmail(user.email))) continue
    await createUser({ ...user, emailVerified: new Date() })
  }
}

function sessionStrategy(env: Env): "jwt" | "database" {
  const value = env.get("AUTH_SESSION_STRATEGY") ?? "jwt"
  if (value !== "jwt" && value !== "database") throw new Error(`AUTH_SESSION_STRATEGY must be "jwt" (the default) or "database", not "${value}"`)
  return value
}

/**
 * The Demo IdP listens on 127.0.0.1 and only accepts loopback callback URLs, so it is offered only
 * while the app's own URL is loopback too (no `WEBAUTH_URL`, or one on localhost/127.0.0.1).
 */
function idpUsable(env: Env): boolean {
  const appUrl = env.get("WEBAUTH_URL")
  return !appUrl || isLoopbackHost(new URL(appUrl).hostname)
}

// --- Redis (REDIS_URL) -------------------------------------------------------------------------
/**
 * With `REDIS_URL`, sessions and users are cached in Redis in front of the database
 * (`withRedisCache`) and rate limits are counted there (`RedisRateLimitStore`); without it nothing
 * changes (memory or PostgreSQL counters, no cache). The client module loads only when asked for.
 */
async function withRedis<A extends DemoDatabase["adapter"]>(env: Env, adapter: A, rateLimitStore: RateLimitStore | undefined) {
  const url = env.get("REDIS_URL")
  if (!url) return { adapter, rateLimitStore }
  const [{ createClient }, { RedisRateLimitStore, withRedisCache }] = await Promise.all([import("redis"), import("@authlib/redis")])
  const client = createClient({ url })
  client.on("error", (err: unknown) => console.warn("[demo] Redis:", err))
  await client.connect()
  console.info("[demo] REDIS_URL: sessions cached and rate limits counted in Redis")
  return { adapter: withRedisCache(adapter, { client }), rateLimitStore: new RedisRateLimitStore({ client }) }
}
// -----------------------------------------------------------------------------------------------

/** What another app reusing this configuration changes (the Next.js demo mounts authlib at /api/auth). */
export interface DemoConfigOptions {
  /** Where authlib answers: the Demo IdP accepts callbacks there only. Default `/auth`. */
  basePath?: string
  /**
   * Enterprise SSO with the Demo SAML IdP (the Acme Corp organization, see `enterpriseSso`). Default
   * `true`; it needs `organizations` and a configured `url` per origin, which the Qwik demo gives.
   */
  sso?: boolean
}

// --- Enterprise SSO (the Demo SAML IdP) ----------------------------------------------------------
/**
 * TXT lookups for domain verification: the record the seed publishes for `acme.test` (a name no real
 * DNS serves), and real DNS (`node:dns/promises`, the SSO provider's default) for every other name.
 */
function demoResolveTxt(published: Map<string, string[][]>) {
  return async (name: string): Promise<string[][]> => published.get(name) ?? (await import("node:dns/promises")).resolveTxt(name)
}

/**
 * Starts the Demo SAML IdP and answers what SSO adds to the configuration; `seed` then makes the
 * organization, its connection to the IdP and its verified domain (sso-seed.ts), once the rest of
 * the configuration exists (the seed signs its owner in under it).
 */
async function enterpriseSso(env: Env, basePath: string) {
  const published = new Map<string, string[][]>()
  let connectionId: string | undefined
  const appUrl = env.get("WEBAUTH_URL")
  const idp = await startSamlIdp(env, { spFor: trustedSp({ connectionId: () => connectionId, basePath, appUrl, configFor: (origin) => demoAuthConfigFor(env, origin) }) })
  return {
    options: { sso: { resolveTxt: demoResolveTxt(published) }, providers: [SSO()] },
    seed: async (base: QwikAuthConfig) => {
      try {
        connectionId = await seedSsoOrganization({
          base,
          origin: appUrl ? new URL(appUrl).origin : "http://localhost",
          basePath,
          idpMetadataXml: idp.metadataXml,
          publish: (name, value) => void published.set(name, [[value]]),
        })
      } catch (err) {
        // The rest of the demo works without it: "Sign in with SSO" then finds no organization.
        console.warn(`[demo] enterprise SSO is left without its Acme Corp organization: ${err instanceof Error ? err.message : String(err)}`)
      }
    },
  }
}
// -----------------------------------------------------------------------------------------------

async function build(env: Env, options: DemoConfigOptions): Promise<QwikAuthConfig> {
  const withIdp = idpUsable(env)
  if (!withIdp) console.warn("[demo] WEBAUTH_URL is not on loopback: the Demo IdP (127.0.0.1 only) is left out")
  const basePath = options.basePath ?? "/auth"
  const [database, smtp, idp, sso] = await Promise.all([
    demoDatabase(env),
    startInbox(env),
    withIdp ? startIdp(env, basePath) : undefined,
    // Like the Demo IdP, the Demo SAML IdP is local only (127.0.0.1, loopback SPs).
    withIdp && options.sso !== false ? enterpriseSso(env, basePath) : undefined,
  ])
  const { adapter, rateLimitStore } = await withRedis(env, database.adapter, database.rateLimitStore)
  await storeDemoUsers(adapter)
  const config: QwikAuthConfig = {
    secret: demoSecret(env),
    // Origins come from WEBAUTH_URL when set; otherwise from the Host header, which the server
    // (entry.node-server.ts) only accepts as a loopback name and only while listening on loopback.
    trustHost: true,
    adapter,
    // Every session read checks the user's session epoch, so that "sign out everywhere" ends JWT
    // sessions at once here (the default checks when the cookie is re-issued, once a day).
    session: { strategy: sessionStrategy(env), checkRevocation: "every-request" },
    // authlib's default limits; shared through Redis with REDIS_URL, else PostgreSQL with DATABASE_URL (database.ts).
    rateLimit: rateLimitStore ? { store: rateLimitStore } : {},
    experimental: { enableWebAuthn: true },
    // Two-step verification (account page): a user who turns it on is asked for a code from an
    // authenticator app, or a backup code, after every first factor but a passkey (which counts as both);
    // a user with a passkey may use it for that second step instead ("Use a passkey" on /auth/two-factor).
    // `AUTH_TWO_FACTOR_FRESH_AGE` (seconds) shortens the 10 minutes a second factor stays fresh, to try
    // the account page's "Confirm it is you" step without waiting.
    twoFactor: { issuer: "authlib demo", ...freshAge(env) },
    providers: [
      passwordProvider(),
      ...(idp ? [demoIdpProvider(idp.issuer)] : []),
      Nodemailer({ name: "Email link", server: `smtp://127.0.0.1:${smtp.port}`, from: "authlib demo <sign-in@demo.authlib.local>" }),
      passkeyProvider(env),
      ...(sso?.options.providers ?? []),
      ...realProviders(env),
    ],
    // One sign-in UI: every sign-in error (a cancelled IdP sign-in, an account linked another way, a
    // refused passkey, a used link) lands on the demo's own sign-in page, which says what happened.
    // The built-in sign-in page stays reachable at /auth/signin to show it.
    pages: { error: "/sign-in/" },
    // The built-in pages under /auth carry the demo's name, logo and colour.
    theme: { name: "authlib demo", logo: "/favicon.svg", brandColor: "#3b5bdb" },
    // Organizations (the /organizations/ page): built-in roles, invitations mailed to the inbox.
    organizations: { sendInvitation: invitationSender(smtp.port) },
    // Enterprise SSO (the sign-in page's "Sign in with SSO"): organizations sign their staff in
    // through their own IdP, here the Acme Corp organization through the Demo SAML IdP.
    ...(sso ? { sso: sso.options.sso } : {}),
  }
  await sso?.seed(config)
  return config
}

/**
 * Core builds invitation links from the configured `url`, never from the request's Host. With
 * `WEBAUTH_URL` that is it (the binding reads it). Without it the demo answers loopback Host names
 * only (server/local-only.ts), so the request's origin is one of this machine's, and each such
 * origin gets its own copy of the configuration with `url` set to it: a link sent from
 * http://localhost:3000 opens there, where the invited user's browser holds its session (cookies
 * belong to a host name), and every other origin core writes is the one it took from the request
 * anyway. Kept per origin, so core resolves each once; past a handful (a tunnel on another local
 * port), a copy is made per request.
 */
const perOrigin = new Map<string, QwikAuthConfig>()
const MAX_ORIGINS = 8

function forOrigin(base: QwikAuthConfig, env: Env, origin: string): QwikAuthConfig {
  if (env.get("WEBAUTH_URL") || !isLoopbackHost(new URL(origin).hostname)) return base
  const known = perOrigin.get(origin)
  if (known) return known
  const config = { ...base, url: origin }
  if (perOrigin.size < MAX_ORIGINS) perOrigin.set(origin, config)
  return config
}

/**
 * The config for this process: built once, with everything it starts (database, inbox, IdP); the
 * same object every request, so core caches its resolved form.
 */
export function demoAuthConfig(env: Env, options: DemoConfigOptions = {}): Promise<QwikAuthConfig> {
  built ??= build(env, options).catch((err: unknown) => {
    built = undefined
    throw err
  })
  return built
}

/**
 * The config for a request from `origin` (the same object every request from one origin, so core
 * caches its resolved form): without `WEBAUTH_URL`, `url` is that origin (see `forOrigin`).
 * A function of its own, not an optional argument of `demoAuthConfig`: the server build (Rollup)
 * dropped an argument that only calls through a dynamic `import()` passed.
 */
export async function demoAuthConfigFor(env: Env, origin: string): Promise<QwikAuthConfig> {
  return forOrigin(await demoAuthConfig(env), env, origin)
}
