// Every page passes `callbacks.authorized` (lib/demo.ts): /account and /protected need a session.
// The proxy runs on Node.js, so database sessions are checked fully here (revocation, expiry).
export { auth as proxy } from "./auth"

export const config = { matcher: ["/((?!_next/|favicon.ico|api/auth/).*)"] }
