/**
 * core's memory adapter plus the account methods a clean-up of unverified links needs
 * (`listAccountsByUserId`, `unlinkAccount`) and passkey records (`listAuthenticatorsByUserId`,
 * `deleteAuthenticator`), logged in the same call log.
 */
import type { AdapterAuthenticator } from "../../src/kernel/types/adapters.js"
import { memoryAdapter, type MemoryAdapter } from "./memory-adapter.js"

export interface AccountListingAdapter extends MemoryAdapter {
  authenticators: AdapterAuthenticator[]
}

export function accountListingAdapter(): AccountListingAdapter {
  const base = memoryAdapter()
  const authenticators: AdapterAuthenticator[] = []
  const log = <A extends unknown[], R>(method: string, fn: (...args: A) => R) => async (...args: A) => {
    base.calls.push({ method, args })
    return fn(...args)
  }
  return Object.assign(base, {
    authenticators,
    listAccountsByUserId: log("listAccountsByUserId", (userId: string) => base.accounts.filter((a) => a.userId === userId).map((a) => ({ ...a }))),
    unlinkAccount: log("unlinkAccount", (key: { provider: string; providerAccountId: string }) => {
      const i = base.accounts.findIndex((a) => a.provider === key.provider && a.providerAccountId === key.providerAccountId)
      return i < 0 ? undefined : base.accounts.splice(i, 1)[0]
    }),
    listAuthenticatorsByUserId: log("listAuthenticatorsByUserId", (userId: string) => authenticators.filter((a) => a.userId === userId).map((a) => ({ ...a }))),
    deleteAuthenticator: log("deleteAuthenticator", (credentialID: string) => {
      const i = authenticators.findIndex((a) => a.credentialID === credentialID)
      return i < 0 ? null : authenticators.splice(i, 1)[0]!
    }),
  })
}
