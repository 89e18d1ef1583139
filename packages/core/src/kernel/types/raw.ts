/**
 * Marker for server-side bindings: with `raw` in the config, `Auth` resolves to the internal
 * result instead of a `Response`, so a binding can throw `CredentialsSignin` to its caller.
 */
export const raw: unique symbol = Symbol("authlib.raw")
