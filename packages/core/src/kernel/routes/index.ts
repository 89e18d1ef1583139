/**
 * The kernel's own routes: the ones every configuration has, whatever capabilities it uses.
 * Capabilities declare theirs the same way (`capabilities/<name>/index.ts`).
 */
import type { Capability } from "../types/capability.js"
import { callback } from "./callback.js"
import { csrf } from "./csrf.js"
import { errorPage } from "./error.js"
import { providers } from "./providers.js"
import { getSession, updateSession } from "./session.js"
import { signinPage, signinProvider } from "./signin.js"
import { signout, signoutPage } from "./signout.js"

export const kernelRoutes: Capability = {
  name: "kernel",
  routes: [
    { action: "providers", answers: "json", GET: { handler: providers, csrf: false } },
    { action: "csrf", answers: "json", GET: { handler: csrf, csrf: false } },
    // GET /session is polled by apps: limited only when `session.perClient` has rules (the kernel
    // skips a group without rules before any store call).
    { action: "session", answers: "json", GET: { handler: getSession, csrf: false, rateLimit: "session.perClient" }, POST: { handler: updateSession, csrf: true, rateLimit: "session.perClient" } },
    { action: "signin", answers: "sign-in", withProvider: true, GET: { handler: signinPage, csrf: false }, POST: { handler: signinProvider, csrf: true } },
    {
      action: "callback",
      answers: "sign-in",
      withProvider: true,
      GET: { handler: callback, csrf: false },
      POST: { handler: callback, csrf: false, csrfBy: "the provider's flow: its callbackCsrf (OAuth form_post is bound by its state/PKCE check cookies instead)" },
    },
    { action: "signout", answers: "page", GET: { handler: signoutPage, csrf: false }, POST: { handler: signout, csrf: true } },
    { action: "error", answers: "page", GET: { handler: errorPage, csrf: false } },
  ],
}
