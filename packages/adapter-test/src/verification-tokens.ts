import { expect } from "vitest"
import type { SuiteContext } from "./types.js"
import { expectDate } from "./shapes.js"
import { randomToken } from "./context.js"

/** createVerificationToken, useVerificationToken. */
export function verificationTokensSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  test("createVerificationToken stores the token with exact shape", async () => {
    const input = make.verificationToken()
    const created = await adapter.createVerificationToken(input)
    if (created != null) expect(created).toStrictEqual(input)
    expect(await db.verificationToken(input)).toStrictEqual(input)
  })

  test("useVerificationToken returns the token with its stored expiry", async () => {
    const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + 10 * 60_000)
    const input = make.verificationToken({ expires })
    await adapter.createVerificationToken(input)
    const used = await adapter.useVerificationToken({ identifier: input.identifier, token: input.token })
    expect(used).toStrictEqual(input)
    expectDate(used?.expires, expires)
  })

  test("useVerificationToken is single use", async () => {
    const input = make.verificationToken()
    await adapter.createVerificationToken(input)
    const key = { identifier: input.identifier, token: input.token }
    expect(await adapter.useVerificationToken(key)).toStrictEqual(input)
    expect(await db.verificationToken(key)).toBeNull()
    expect(await adapter.useVerificationToken(key)).toBeNull()
  })

  test("useVerificationToken returns null for an unknown token", async () => {
    expect(await adapter.useVerificationToken({ identifier: "nobody@example.com", token: randomToken() })).toBeNull()
  })

  test("useVerificationToken needs both the identifier and the token to match", async () => {
    const input = make.verificationToken()
    const other = make.verificationToken()
    await adapter.createVerificationToken(input)
    await adapter.createVerificationToken(other)
    expect(await adapter.useVerificationToken({ identifier: other.identifier, token: input.token })).toBeNull()
    expect(await adapter.useVerificationToken({ identifier: input.identifier, token: other.token })).toBeNull()
    expect(await db.verificationToken(input)).toStrictEqual(input)
    expect(await db.verificationToken(other)).toStrictEqual(other)
  })

  test("useVerificationToken leaves other tokens of the same identifier", async () => {
    const first = make.verificationToken()
    const second = make.verificationToken({ identifier: first.identifier })
    await adapter.createVerificationToken(first)
    await adapter.createVerificationToken(second)
    expect(await adapter.useVerificationToken(first)).toStrictEqual(first)
    expect(await db.verificationToken(second)).toStrictEqual(second)
  })

  test("useVerificationToken returns an expired token (with its expiry) for core to reject", async () => {
    const expires = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000)
    const input = make.verificationToken({ expires })
    await adapter.createVerificationToken(input)
    const used = await adapter.useVerificationToken(input)
    expectDate(used?.expires, expires)
    expect(await db.verificationToken(input)).toBeNull()
  })

  test("verification tokens keep unicode identifiers and long tokens unchanged", async () => {
    const input = make.verificationToken({
      identifier: `jöhn.dœ+${crypto.randomUUID()}@bücher.example`,
      token: randomToken(512),
    })
    await adapter.createVerificationToken(input)
    expect(await adapter.useVerificationToken(input)).toStrictEqual(input)
  })
}
