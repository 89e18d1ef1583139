/**
 * Backup codes (capabilities/two-factor/backup-codes.ts): 10 readable codes of 60 bits, uniform
 * symbols, forgiving normalisation, keyed hashes bound to the user and the secret, candidates
 * for every secret of the rotation list.
 */
import { describe, expect, it } from "vitest"
import {
  BACKUP_CODE_BITS, BACKUP_CODE_COUNT, backupCodeCandidates, generateBackupCodes, hashBackupCode, normalizeBackupCode,
} from "../../../src/capabilities/two-factor/backup-codes.js"

const SECRET = "secret-0123456789abcdefghijklmnopqrstu"
const OLDER = "older-0123456789abcdefghijklmnopqrstuv"
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

describe("generateBackupCodes", () => {
  it("makes 10 distinct codes of three groups of four Crockford base32 symbols (12 x 5 = 60 bits)", () => {
    const codes = generateBackupCodes()
    expect(codes).toHaveLength(BACKUP_CODE_COUNT)
    expect(new Set(codes).size).toBe(10)
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(BACKUP_CODE_BITS).toBe(12 * Math.log2(CROCKFORD.length))
    expect(BACKUP_CODE_BITS).toBeGreaterThanOrEqual(50)
  })

  it("uses every symbol with about equal frequency (no modulo bias)", () => {
    const counts = new Map<string, number>()
    for (const code of generateBackupCodes(100).concat(generateBackupCodes(100), generateBackupCodes(100))) {
      for (const c of code.replace(/-/g, "")) counts.set(c, (counts.get(c) ?? 0) + 1)
    }
    // 3600 symbols over 32: 112.5 expected each; a biased generator would starve or flood some.
    expect([...counts.keys()].sort().join("")).toBe(CROCKFORD)
    for (const [symbol, n] of counts) expect(n, symbol).toBeGreaterThan(60)
  })
})

describe("normalizeBackupCode", () => {
  it("ignores case, spaces and dashes (Unicode ones too) and reads O, I, L as 0, 1, 1", () => {
    for (const typed of ["7kq2-m9xd-4trb", " 7KQ2 M9XD 4TRB ", "7KQ2\u2013M9XD\u20144TRB", "7KQ2M9XD4TRB"]) expect(normalizeBackupCode(typed), typed).toBe("7KQ2M9XD4TRB")
    expect(normalizeBackupCode("O1IL-oiil-0000")).toBe("0111011100" + "00")
  })

  it("answers null for what cannot be a code: wrong length, U, other characters, over-long input, non-strings", () => {
    for (const bad of ["", "7KQ2-M9XD-4TR", "7KQ2-M9XD-4TRBB", "7KQ2-M9XD-4TRU", "7KQ2-M9XD-4TR!", "7KQ2-M9XD-4TRÉ", `${"-".repeat(60)}7KQ2M9XD4TRB`, 123 as unknown as string]) {
      expect(normalizeBackupCode(bad), JSON.stringify(bad)).toBeNull()
    }
  })
})

describe("hashBackupCode / backupCodeCandidates", () => {
  it("hashes the normalised code: the displayed and the typed form hash alike; the hash holds no trace of the code", () => {
    const [code] = generateBackupCodes(1) as [string]
    const hash = hashBackupCode(code, "u1", SECRET)
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(hashBackupCode(` ${code.toLowerCase().replace(/-/g, " ")} `, "u1", SECRET)).toBe(hash)
    expect(hash).not.toContain(code.replace(/-/g, "").slice(0, 4))
  })

  it("is keyed: another user, another secret or another code gives another hash", () => {
    const [a, b] = generateBackupCodes(2) as [string, string]
    const hash = hashBackupCode(a, "u1", SECRET)
    expect(new Set([hash, hashBackupCode(a, "u2", SECRET), hashBackupCode(a, "u1", OLDER), hashBackupCode(b, "u1", SECRET)]).size).toBe(4)
    // The user id is length-prefixed: ("u1", code) and ("u", "1" + code) cannot meet.
    expect(hashBackupCode(a, "u1:", SECRET)).not.toBe(hashBackupCode(a, "u1", SECRET))
  })

  it("candidates: one hash per secret of the list, so a code hashed before a rotation is found; null for a non-code", () => {
    const [code] = generateBackupCodes(1) as [string]
    expect(backupCodeCandidates(code, "u1", [SECRET, OLDER])).toStrictEqual([hashBackupCode(code, "u1", SECRET), hashBackupCode(code, "u1", OLDER)])
    expect(backupCodeCandidates(code, "u1", [SECRET, SECRET])).toHaveLength(1)
    expect(backupCodeCandidates("123456", "u1", [SECRET])).toBeNull()
    expect(() => hashBackupCode("nope", "u1", SECRET)).toThrow(TypeError)
  })
})
