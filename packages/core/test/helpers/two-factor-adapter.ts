/**
 * core's memory adapter plus the `twoFactor` port, each write conditional (and, being synchronous,
 * atomic), with the records kept so a test can search them for plain-text secrets.
 */
import type { Adapter, AdapterTwoFactor } from "../../src/index.js"
import { memoryAdapter, type MemoryAdapter } from "./memory-adapter.js"

interface Row {
  secret: string
  enabled: boolean
  lastUsedStep: number | null
  codes: Set<string>
  failedAttempts: number
}

/** The port's methods, present (a test calls them without asserting they exist). */
type TwoFactorPort = Required<Pick<Adapter, "getTwoFactor" | "setTwoFactorPendingSecret" | "enableTwoFactor" | "countTwoFactorAttempt" | "recordTwoFactorStep" | "useTwoFactorBackupCode" | "resetTwoFactorFailures" | "replaceTwoFactorBackupCodes" | "deleteTwoFactor">>

export type TwoFactorAdapter = Omit<MemoryAdapter, keyof TwoFactorPort> & TwoFactorPort & {
  twoFactors: Map<string, Row>
}

/** `base` (core's memory adapter by default, or one built on it such as the passkey adapter) plus the port. */
export function twoFactorAdapter<B extends MemoryAdapter = MemoryAdapter>(base: B = memoryAdapter() as B): B & TwoFactorAdapter {
  const rows = new Map<string, Row>()
  const view = (userId: string, r: Row): AdapterTwoFactor => ({ userId, secret: r.secret, enabled: r.enabled, lastUsedStep: r.lastUsedStep, backupCodesLeft: r.codes.size, failedAttempts: r.failedAttempts })
  return Object.assign(base, {
    twoFactors: rows,
    getTwoFactor: (userId: string) => (rows.has(userId) ? view(userId, rows.get(userId)!) : null),
    setTwoFactorPendingSecret: (userId: string, secret: string) => {
      if (!base.users.has(userId) || rows.get(userId)?.enabled) return null
      const row = { secret, enabled: false, lastUsedStep: null, codes: new Set<string>(), failedAttempts: 0 }
      rows.set(userId, row)
      return view(userId, row)
    },
    enableTwoFactor: (userId: string, p: { secret: string; step: number; backupCodeHashes: readonly string[] }) => {
      const row = rows.get(userId)
      if (!row || row.enabled || row.secret !== p.secret) return null
      Object.assign(row, { enabled: true, lastUsedStep: p.step, codes: new Set(p.backupCodeHashes), failedAttempts: 0 })
      return view(userId, row)
    },
    countTwoFactorAttempt: (userId: string, ceiling: number) => {
      const row = rows.get(userId)
      if (!row?.enabled || row.failedAttempts >= ceiling) return null
      row.failedAttempts++
      return view(userId, row)
    },
    recordTwoFactorStep: (userId: string, step: number) => {
      const row = rows.get(userId)
      if (!row?.enabled || (row.lastUsedStep !== null && step <= row.lastUsedStep)) return false
      Object.assign(row, { lastUsedStep: step, failedAttempts: 0 })
      return true
    },
    useTwoFactorBackupCode: (userId: string, hashes: readonly string[]) => {
      const row = rows.get(userId)
      if (!row?.enabled) return false
      const hit = hashes.find((h) => row.codes.has(h))
      if (hit === undefined) return false
      row.codes.delete(hit)
      row.failedAttempts = 0
      return true
    },
    resetTwoFactorFailures: (userId: string) => {
      const row = rows.get(userId)
      if (!row?.enabled) return false
      row.failedAttempts = 0
      return true
    },
    replaceTwoFactorBackupCodes: (userId: string, hashes: readonly string[]) => {
      const row = rows.get(userId)
      if (!row?.enabled) return false
      row.codes = new Set(hashes)
      return true
    },
    deleteTwoFactor: (userId: string) => rows.delete(userId),
  })
}
