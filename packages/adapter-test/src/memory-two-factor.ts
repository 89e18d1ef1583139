/**
 * The two-factor port of `MemoryAdapter`. Every method is synchronous from read to write, so no
 * other call runs in between: that is what makes each conditional write atomic here (of parallel
 * callers exactly one records a step or uses a backup code, and every counted attempt is counted).
 */
import type { Adapter, AdapterTwoFactor } from "@authlib/core"

/** A user's two-factor record as the memory store keeps it: the backup codes as their hashes. */
export interface MemoryTwoFactor {
  secret: string
  enabled: boolean
  lastUsedStep: number | null
  backupCodeHashes: string[]
  /** TOTP attempts since the last accepted code (see `AdapterTwoFactor.failedAttempts`). */
  failedAttempts: number
}

/** What the two-factor methods need of the store. */
interface TwoFactorStore {
  users: Map<string, unknown>
  twoFactor: Map<string, MemoryTwoFactor>
}

const record = (userId: string, r: MemoryTwoFactor): AdapterTwoFactor => ({
  userId,
  secret: r.secret,
  enabled: r.enabled,
  lastUsedStep: r.lastUsedStep,
  backupCodesLeft: r.backupCodeHashes.length,
  failedAttempts: r.failedAttempts,
})

type TwoFactorMethods = Pick<
  Required<Adapter>,
  | "getTwoFactor" | "setTwoFactorPendingSecret" | "enableTwoFactor" | "countTwoFactorAttempt" | "recordTwoFactorStep"
  | "useTwoFactorBackupCode" | "resetTwoFactorFailures" | "replaceTwoFactorBackupCodes" | "deleteTwoFactor"
>

export function twoFactorMethods(store: TwoFactorStore): TwoFactorMethods {
  const enabled = (userId: string) => {
    const r = store.twoFactor.get(userId)
    return r?.enabled ? r : undefined
  }
  return {
    getTwoFactor(userId) {
      const r = store.twoFactor.get(userId)
      return r ? record(userId, r) : null
    },
    setTwoFactorPendingSecret(userId, secret) {
      if (!store.users.has(userId) || store.twoFactor.get(userId)?.enabled) return null
      const r: MemoryTwoFactor = { secret, enabled: false, lastUsedStep: null, backupCodeHashes: [], failedAttempts: 0 }
      store.twoFactor.set(userId, r)
      return record(userId, r)
    },
    enableTwoFactor(userId, { secret, step, backupCodeHashes }) {
      const r = store.twoFactor.get(userId)
      if (!r || r.enabled || r.secret !== secret) return null
      Object.assign(r, { enabled: true, lastUsedStep: step, backupCodeHashes: [...backupCodeHashes], failedAttempts: 0 })
      return record(userId, r)
    },
    countTwoFactorAttempt(userId, ceiling) {
      const r = enabled(userId)
      if (!r || r.failedAttempts >= ceiling) return null
      r.failedAttempts++
      return record(userId, r)
    },
    recordTwoFactorStep(userId, step) {
      const r = enabled(userId)
      if (!r || (r.lastUsedStep !== null && r.lastUsedStep >= step)) return false
      Object.assign(r, { lastUsedStep: step, failedAttempts: 0 })
      return true
    },
    useTwoFactorBackupCode(userId, codeHashes) {
      const r = enabled(userId)
      const left = r?.backupCodeHashes.filter((hash) => !codeHashes.includes(hash))
      if (!r || !left || left.length === r.backupCodeHashes.length) return false
      Object.assign(r, { backupCodeHashes: left, failedAttempts: 0 })
      return true
    },
    resetTwoFactorFailures(userId) {
      const r = enabled(userId)
      if (!r) return false
      r.failedAttempts = 0
      return true
    },
    replaceTwoFactorBackupCodes(userId, codeHashes) {
      const r = enabled(userId)
      if (!r) return false
      r.backupCodeHashes = [...codeHashes]
      return true
    },
    deleteTwoFactor: (userId) => store.twoFactor.delete(userId),
  }
}
