/**
 * Marker that turns off authlib's CSRF check. Only for bindings that provide an equivalent
 * protection themselves (a same-origin check on every state-changing request plus a token the
 * attacker cannot read). Setting it anywhere else lets another site sign your users in or out.
 */
export const skipCSRFCheck: unique symbol = Symbol("authlib.skip-csrf-check")
