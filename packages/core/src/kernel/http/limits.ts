/**
 * Size limits of a request, shared by the parser and by whatever writes data that comes back in
 * later requests (session cookies).
 */

/** The largest body read: no sign-in form comes near it. */
export const MAX_BODY_BYTES = 64 * 1024
/** Headers in total: Node's own default, so a request we accept also passes a Node server. */
export const MAX_HEADER_BYTES = 16 * 1024
