import { MissingSalt, MissingSecret } from "./errors.js"

/**
 * The secrets in rotation order. A missing or empty secret is a configuration error, thrown as
 * `MissingSecret` whatever the token: a silent `null` would look like "signed out" forever.
 */
export function secretsOf(secret: unknown, operation: "encode" | "decode" | "getToken"): string[] {
  const list: unknown[] = Array.isArray(secret) ? secret : [secret]
  const valid = list.length > 0 && list.every((s) => typeof s === "string" && s.length > 0)
  if (!valid) {
    throw new MissingSecret(
      `"secret" of ${operation} must be a non-empty string or a non-empty array of them`,
      { code: "SECRET_MISSING", cause: { operation, received: describe(secret) } },
    )
  }
  return list as string[]
}

/** The salt, required and non-empty: authlib uses the cookie name, so "" is always a mistake. */
export function saltOf(salt: unknown, operation: "encode" | "decode" | "getToken"): string {
  if (typeof salt === "string" && salt.length > 0) return salt
  throw new MissingSalt(`"salt" of ${operation} must be a non-empty string (the cookie name)`, {
    code: "SALT_MISSING",
    cause: { operation, received: describe(salt) },
  })
}

/** Names the kind of a bad value without echoing it: it may be a secret. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return `array(${value.length})`
  if (value === "") return "empty string"
  return value === null ? "null" : typeof value
}
