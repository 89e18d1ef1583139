/**
 * The two-factor port of `MemoryAdapter`. Every method is synchronous from read to write, so no
 * other call runs in between: that is what makes each conditional write atomic here (of parallel
 * callers exactly one records a step or uses a backup code).
 */
import type { Adapter, AdapterTwoFactor } from "@authlib/core"

/** A user's two-factor record as the memory store keeps it: the backup codes as their hashes. */
export interface MemoryTwoFactor {
  secret: string
  enabled: boolean
  lastUsedStep: number | null
  backupCodeHashes: string[]
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
})

type TwoFactorMethods = Pick<
  Required<Adapter>,
  "getTwoFactor" | "setTwoFactorPendingSecret" | "enableTwoFactor" | "recordTwoFactorStep" | "useTwoFactorBackupCode" | "replaceTwoFactorBackupCodes" | "deleteTwoFactor"
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
      const r: MemoryTwoFactor = { secret, enabled: false, lastUsedStep: null, backupCodeHashes: [] }
      store.twoFactor.set(userId, r)
      return record(userId, r)
    },
    enableTwoFactor(userId, { secret, step, backupCodeHashes }) {
      const r = store.twoFactor.get(userId)
      if (!r || r.enabled || r.secret !== secret) return null
      Object.assign(r, { enabled: true, lastUsedStep: step, backupCodeHashes: [...backupCodeHashes] })
      return record(userId, r)
    },
    recordTwoFactorStep(userId, step) {
      const r = enabled(userId)
      if (!r || (r.lastUsedStep !== null && r.lastUsedStep >= step)) return false
      r.lastUsedStep = step
      return true
    },
    useTwoFactorBackupCode(userId, codeHashes) {
      const r = enabled(userId)
      const left = r?.backupCodeHashes.filter((hash) => !codeHashes.includes(hash))
      if (!r || !left || left.length === r.backupCodeHashes.length) return false
      r.backupCodeHashes = left
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
