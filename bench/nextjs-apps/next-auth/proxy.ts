// The proxy guards the protected page: `callbacks.authorized` answers `!!auth` (Node.js runtime).
export { auth as proxy } from "./auth"

export const config = { matcher: ["/protected"] }
