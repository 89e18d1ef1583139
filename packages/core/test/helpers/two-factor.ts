/**
 * Steps the two-factor tests share: the current code of a secret, the session cookie's name in a
 * client's jar, the app's own request from a client's browser (as a server function gets it), and
 * a password sign-in that enrols and confirms TOTP, one with password and code, an adapter with
 * linked accounts to unlink, and a code sure to be wrong.
 */
import { expect, vi } from "vitest"
import { importTotpKey, totp } from "../../src/capabilities/two-factor/totp.js"
import type { AuthConfig } from "../../src/index.js"
import { Client, ORIGIN } from "./harness.js"
import { twoFactorAdapter, type TwoFactorAdapter } from "./two-factor-adapter.js"

/** The code of the base32 `secret` `steps` time steps after the current one. */
export const codeAt = (secret: string, steps = 0): string => totp(importTotpKey(secret), Date.now() + steps * 30_000)

/** Moves the faked clock on by `seconds`. */
export const advanceSeconds = (seconds: number): void => void vi.setSystemTime(Date.now() + seconds * 1000)

/** The name of the session cookie `client` holds, if any. */
export const sessionCookie = (client: Client): string | undefined => [...client.jar.keys()].find((name) => name.includes("session-token"))

/** The app's own request from the browser of `client` (its cookies), as a server function gets it. */
export function appRequest(client: Client): Request {
  const headers = new Headers()
  client.jar.apply(headers, new URL(`${ORIGIN}/account`))
  return new Request(`${ORIGIN}/account`, { headers })
}

/** Password sign-in, TOTP enrolled and confirmed; answers the secret and the 10 backup codes (the session is re-issued with both factors: the confirming code was a second factor). */
export async function enrolTotpWithBackupCodes(client: Client): Promise<{ secret: string; backupCodes: string[] }> {
  expect((await client.signIn()).status).toBe(302)
  const enrolled = await client.post("/auth/two-factor", { action: "totp-enroll" }, { headers: { "x-auth-return-redirect": "1" } })
  const { secret } = (await enrolled.json()) as { secret: string }
  const confirmed = await client.post("/auth/two-factor", { action: "totp-confirm", code: codeAt(secret) })
  expect(confirmed.status).toBe(200)
  const { backupCodes } = (await confirmed.json()) as { backupCodes: string[] }
  return { secret, backupCodes }
}

/** Password sign-in, TOTP enrolled and confirmed; answers the secret (the session is re-issued with both factors: the confirming code was a second factor). */
export async function enrolTotp(client: Client): Promise<string> {
  return (await enrolTotpWithBackupCodes(client)).secret
}

/** A 6-digit code that is none of the codes `secret` accepts now (the current step and one either side). */
export function wrongCodeFor(secret: string): string {
  const accepted = new Set([codeAt(secret, -1), codeAt(secret, 0), codeAt(secret, 1)])
  return ["000000", "111111", "222222", "333333"].find((code) => !accepted.has(code))!
}

/** A sign-in with password and code (the code of the next time step, moved to). */
export async function signInWithCode(config: AuthConfig, secret: string): Promise<Client> {
  const client = new Client(config)
  expect((await client.signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  advanceSeconds(30)
  expect((await client.post("/auth/two-factor", { action: "verify", code: codeAt(secret) })).status).toBe(302)
  return client
}

/** The two-factor adapter plus the account methods unlinking needs, Alice stored, and a GitHub account linked to her. */
export function adapterWithAccounts(): TwoFactorAdapter {
  const adapter = twoFactorAdapter()
  adapter.users.set("user-1", { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: new Date() })
  adapter.accounts.push({ userId: "user-1", provider: "github", providerAccountId: "gh-1", type: "oauth" })
  // The password is a way in that stays (JWT sessions store no credentials account themselves).
  adapter.accounts.push({ userId: "user-1", provider: "credentials", providerAccountId: "user-1", type: "credentials" })
  return Object.assign(adapter, {
    listAccountsByUserId: async (userId: string) => adapter.accounts.filter((a) => a.userId === userId).map((a) => ({ ...a })),
    unlinkAccount: async (key: { provider: string; providerAccountId: string }) => {
      const i = adapter.accounts.findIndex((a) => a.provider === key.provider && a.providerAccountId === key.providerAccountId)
      return i < 0 ? undefined : adapter.accounts.splice(i, 1)[0]
    },
  })
}
