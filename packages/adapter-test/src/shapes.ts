/**
 * What a stored record must look like when it comes back, built from what went in. The suites
 * compare with `toStrictEqual`, so a key too many, `undefined` in place of `null`, or a date string
 * in place of a `Date` fails.
 */
import { expect } from "vitest"
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "@authlib/core"

/** The user as it must come back: every optional field present (`email` too), `null` when it was not given. */
export function storedUser(input: Partial<AdapterUser>, id: string): AdapterUser {
  return {
    id,
    name: input.name ?? null,
    email: input.email ?? null,
    emailVerified: input.emailVerified ?? null,
    image: input.image ?? null,
  }
}

/** The authenticator as it must come back: `transports` is `null` when it was not given. */
export function storedAuthenticator(input: AdapterAuthenticator): AdapterAuthenticator {
  return { ...input, transports: input.transports ?? null }
}

/**
 * An authenticator must come back with exactly the eight Auth.js fields that went in (`transports`
 * `null` when not given) and no other key, except the optional management fields, which an
 * adapter may store or not: `name` (a string or `null`), `createdAt` and `lastUsedAt` (`Date`s or
 * `null`). Their exact values are checked by the management suite, for adapters that have it.
 */
export function expectAuthenticator(actual: AdapterAuthenticator | null | undefined, input: AdapterAuthenticator): void {
  expect(actual).toBeTypeOf("object")
  expect(actual).not.toBeNull()
  const { name, createdAt, lastUsedAt, ...fields } = actual as AdapterAuthenticator
  const { name: _name, createdAt: _createdAt, lastUsedAt: _lastUsedAt, ...expected } = storedAuthenticator(input)
  expect(fields).toStrictEqual(expected)
  expect(name === undefined || name === null || typeof name === "string", "authenticator.name is a string or null").toBe(true)
  for (const [key, value] of [["createdAt", createdAt], ["lastUsedAt", lastUsedAt]] as const) {
    expect(value === undefined || value === null || value instanceof Date, `authenticator.${key} is a Date or null`).toBe(true)
  }
}

function withoutEmpty(record: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined))
}

/** The optional token fields of `AdapterAccount` (OAuth token set): the only keys that may come back empty without having gone in. */
export const OPTIONAL_TOKEN_FIELDS: ReadonlySet<string> = new Set([
  "access_token",
  "refresh_token",
  "id_token",
  "scope",
  "token_type",
  "expires_in",
  "expires_at",
  "session_state",
  "authorization_details",
])

/**
 * An account must come back with exactly the fields that went in, and no other key. The one
 * allowance: an optional token field that was not given may come back absent or `null` (the type
 * says absent; SQL stores naturally say `null`). Any other extra key fails, even with an empty value.
 */
export function expectAccount(actual: AdapterAccount | null | undefined, expected: AdapterAccount): void {
  expect(actual).toBeTypeOf("object")
  expect(actual).not.toBeNull()
  expect(withoutEmpty(actual as AdapterAccount)).toStrictEqual(withoutEmpty(expected))
  for (const [key, value] of Object.entries(actual as AdapterAccount)) {
    if (value !== null && value !== undefined) continue
    expect(expected[key] ?? null, `account.${key} came back empty`).toBeNull()
    expect(key in expected || OPTIONAL_TOKEN_FIELDS.has(key), `account has an unknown key "${key}"`).toBe(true)
  }
}

/** Asserts that a value is a `Date` (not a string or number) equal to `expected`. */
export function expectDate(actual: unknown, expected: Date): void {
  expect(actual).toBeInstanceOf(Date)
  expect((actual as Date).getTime()).toBe(expected.getTime())
}
