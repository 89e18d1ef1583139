import { expect } from "vitest"
import type { SuiteContext } from "./types.js"

/**
 * getVerificationToken (optional): core reads an e-mail link's token when the link is opened, to
 * refuse a used or expired link at once; the read must never use the token up. Registered only
 * when the adapter has the method (see `runBasicTests`).
 */
export function getVerificationTokenSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  test("getVerificationToken returns the stored token and leaves it usable", async () => {
    const token = make.verificationToken()
    await adapter.createVerificationToken(token)
    expect(await adapter.getVerificationToken({ identifier: token.identifier, token: token.token })).toEqual(token)
    expect(await db.verificationToken(token)).not.toBeNull()
    expect(await adapter.useVerificationToken({ identifier: token.identifier, token: token.token })).toEqual(token)
  })

  test("getVerificationToken answers null for an unknown token, another identifier's token and a used one", async () => {
    const token = make.verificationToken()
    await adapter.createVerificationToken(token)
    expect(await adapter.getVerificationToken({ identifier: token.identifier, token: `${token.token}-other` })).toBeNull()
    expect(await adapter.getVerificationToken({ identifier: `other-${token.identifier}`, token: token.token })).toBeNull()
    await adapter.useVerificationToken({ identifier: token.identifier, token: token.token })
    expect(await adapter.getVerificationToken({ identifier: token.identifier, token: token.token })).toBeNull()
  })
}
