/**
 * Agreement with Debian's `oathtool` (OATH Toolkit), an independent implementation: the same key
 * gives the same code at many times, for each algorithm, digit count and period. `.ci/setup`
 * installs it; where it is missing this test fails and says how to get it, rather than skip.
 */
import { execFileSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { base32Encode } from "../../../src/capabilities/two-factor/base32.js"
import { createTotpKey, importTotpKey, totp, type TotpAlgorithm, type TotpDigits } from "../../../src/capabilities/two-factor/totp.js"

function oathtool(args: string[]): string {
  try {
    return execFileSync("oathtool", args, { encoding: "utf8" }).trim()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error("oathtool is not installed: run `apt-get install oathtool` (.ci/setup installs it). This test compares TOTP codes with it and must not be skipped.")
    }
    throw err
  }
}

/** Times spread over 1970 to 2100, step edges included, from a fixed seed so a failure reproduces. */
function times(count: number): number[] {
  let seed = 0x2f6b1d
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  const spread = Array.from({ length: count }, () => Math.floor(next() * 4_102_444_800))
  return [0, 29, 30, 59, 1_111_111_109, 1_700_000_000, 2_000_000_000, ...spread]
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace("T", " ").replace(".000Z", " UTC")

describe("agreement with oathtool", () => {
  const cases: Array<[TotpAlgorithm, TotpDigits, number]> = [
    ["SHA-1", 6, 30],
    ["SHA-256", 6, 30],
    ["SHA-512", 8, 30],
    ["SHA-1", 8, 60],
    ["SHA-256", 7, 15],
  ]
  for (const [algorithm, digits, period] of cases) {
    it(`${algorithm}, ${digits} digits, ${period} s: the same code at 27 times`, () => {
      const key = createTotpKey({ algorithm, digits, period })
      const secret = base32Encode(key.secret)
      const mode = algorithm.replace("-", "")
      for (const seconds of times(20)) {
        const theirs = oathtool([`--totp=${mode}`, "-b", secret, `--now=${iso(seconds)}`, `--digits=${digits}`, `--time-step-size=${period}s`])
        expect(totp(key, seconds * 1000), `${algorithm} at ${iso(seconds)}`).toBe(theirs)
      }
    })
  }

  it("an imported secret (as another service shows it, lower case in groups) makes oathtool's codes", () => {
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    const key = importTotpKey("jbsw y3dp ehpk 3pxp jbsw y3dp ehpk 3pxp")
    for (const seconds of times(5)) expect(totp(key, seconds * 1000)).toBe(oathtool(["--totp", "-b", secret, `--now=${iso(seconds)}`]))
  })
})
