/**
 * The app of the two-process replay test, as each child process and the test itself run it: the
 * same secret (they are one app), database sessions, two-factor sign-in, no rate limit (so only the
 * single use of a code decides), a password provider over the adapter's users.
 */
import type { AdapterUser, AuthConfig } from "@authlib/core"

export const ORIGIN = "http://app.test"

/** The app both processes and the test itself run (same secret: they are one app). */
export function twoFactorAppConfig(adapter: NonNullable<AuthConfig["adapter"]>): AuthConfig {
  return {
    secret: "two-instances-share-this-secret-0123456789",
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    twoFactor: { issuer: "Replay" },
    rateLimit: false,
    logger: { error: (...args) => console.error(...args), warn: () => {}, debug: () => {} },
    providers: [
      {
        id: "password",
        name: "Password",
        type: "credentials",
        credentials: { email: { label: "E-mail" }, password: { label: "Password", type: "password" } },
        async authorize(c) {
          if (c.password !== "correct" || typeof c.email !== "string") return null
          return ((await adapter.getUserByEmail?.(c.email)) ?? null) as AdapterUser | null
        },
      },
    ],
  }
}

