/**
 * The demo's authlib configuration, made once per process: the Qwik demo's embedded defaults
 * (`@authlib/demo/server/auth-config`: PGlite or `DATABASE_URL`, the local SMTP inbox, the Demo IdP,
 * password users, passkeys, two-step verification) mounted at `/api/auth`, with the Next.js parts
 * on top (`callbacks.authorized` for the proxy, session updates, the app's sign-in page).
 *
 * Next bundles the proxy, route handlers and pages separately, so a module-level singleton would
 * exist once per bundle: two PGlite instances on one folder, two SMTP servers. The one copy lives
 * on `globalThis` instead, with the inbox reader of the same module instance.
 */
import type { NextAuthConfig } from "@authlib/nextjs"
import { demoAuthConfig } from "@authlib/demo/server/auth-config"
import { inboxMessages, type InboxMessage } from "@authlib/demo/server/inbox"
import { hostNameOf, isLoopbackHost } from "@authlib/demo/server/local-only"

const env = { get: (name: string) => process.env[name] }

/** Pages only a signed-in user sees: the proxy sends everyone else to /sign-in with `callbackUrl`. */
const PROTECTED = ["/account", "/protected"]

interface Shared {
  config: Promise<NextAuthConfig>
  inbox: () => readonly InboxMessage[]
}

async function build(): Promise<NextAuthConfig> {
  // Organizations are the Qwik demo's page; their invitation links need a configured `url` (never
  // the request's Host), which this demo, served on whatever loopback origin, leaves to WEBAUTH_URL.
  // Enterprise SSO (the Qwik demo's Demo SAML IdP) needs both, so it stays the Qwik demo's.
  const { organizations, ...shared } = (await demoAuthConfig(env, { basePath: "/api/auth", sso: false })) as NextAuthConfig
  const base = process.env.WEBAUTH_URL ? { ...shared, organizations } : shared
  const adapter = base.adapter
  return {
    ...base,
    basePath: "/api/auth",
    pages: { ...base.pages, signIn: "/sign-in", error: "/sign-in" },
    callbacks: {
      // A new display name from `unstable_update` or the client's `update()`: in the token (JWT
      // strategy) or in the user record (database strategy), so the next read shows it everywhere.
      jwt({ token, trigger, session }) {
        if (trigger === "update" && typeof session?.name === "string") token.name = session.name.slice(0, 80)
        return token
      },
      async session({ session, user, trigger, newSession }) {
        if (user && trigger === "update" && typeof newSession?.name === "string" && adapter?.updateUser) {
          const name = newSession.name.slice(0, 80)
          await adapter.updateUser({ id: user.id, name })
          session.user = { ...session.user, name }
        }
        return session
      },
      authorized({ auth, request }) {
        const path = request.nextUrl.pathname
        return !PROTECTED.some((p) => path === p || path.startsWith(`${p}/`)) || !!auth
      },
    },
  }
}

/**
 * Without `WEBAUTH_URL`, origins come from the Host header: the demo (listening on 127.0.0.1, its
 * inbox showing every sign-in link) answers loopback names only, against DNS rebinding; the proxy
 * (proxy.ts) answers 421 to any other, before authlib or a page sees the request. Next itself adds
 * `X-Forwarded-Host`, so unlike the Qwik demo that header cannot be refused here.
 */
export function foreignHost(headers: Headers): Response | undefined {
  if (process.env.WEBAUTH_URL) return undefined
  const name = hostNameOf(headers.get("host"))
  if (name && isLoopbackHost(name)) return undefined
  return new Response("This demo only answers to localhost and 127.0.0.1 unless WEBAUTH_URL is set.", { status: 421 })
}

const KEY = Symbol.for("authlib.next-demo")

function shared(): Shared {
  const store = globalThis as typeof globalThis & { [KEY]?: Shared }
  store[KEY] ??= { config: build(), inbox: inboxMessages }
  store[KEY].config.catch(() => {
    // A failed start is not kept: the next request tries again.
    delete store[KEY]
  })
  return store[KEY]
}

/** The configuration `NextAuth` runs (the same object every time, so core's cache holds). */
export function demoConfig(): Promise<NextAuthConfig> {
  return shared().config
}

/** What the demo's SMTP server received, newest first (the one server of this process). */
export async function demoInbox(): Promise<readonly InboxMessage[]> {
  await demoConfig()
  return shared().inbox()
}
