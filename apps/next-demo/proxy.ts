import type { NextRequest } from "next/server"
import { auth } from "./auth"
import { foreignHost } from "./lib/demo"

// Every request passes here (authlib's routes too): a Host that is not loopback is refused first
// (lib/demo.ts); then authlib's proxy applies `callbacks.authorized`: /account and /protected need
// a session. The proxy runs on Node.js, so database sessions are checked fully (revocation, expiry).
export function proxy(request: NextRequest, ctx: unknown) {
  return foreignHost(request.headers) ?? auth(request, ctx)
}

export const config = { matcher: ["/((?!_next/|favicon.ico).*)"] }
