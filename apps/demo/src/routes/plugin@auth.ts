/**
 * authlib for the whole app: core answers under /auth, every page can read the session, and the
 * sign-in/out actions are available to every component.
 *
 * The configuration function is a QRL that Qwik also bundles for the browser; the server-only
 * modules it needs (node:crypto, node:fs) load behind `isServer`, which browser builds drop.
 */
import { QwikAuth$ } from "@authlib/qwik"
import { isServer } from "@builder.io/qwik/build"

export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(async (ev) => {
  if (!isServer) throw new Error("authlib's configuration runs on the server only")
  const { demoAuthConfigFor } = await import("../server/auth-config")
  return demoAuthConfigFor(ev.env, ev.url.origin)
})
