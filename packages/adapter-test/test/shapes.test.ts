import { describe, expect, test } from "vitest"
import type { AdapterAccount } from "@authlib/core"
import { expectAccount } from "../src/shapes.js"

const account: AdapterAccount = {
  userId: "u1",
  type: "oauth",
  provider: "github",
  providerAccountId: "42",
  access_token: "at",
  expires_at: 1_900_000_000,
}

describe("expectAccount", () => {
  test("accepts the account as it went in", () => {
    expectAccount({ ...account }, account)
  })

  test("accepts optional token fields that were not given coming back null or undefined", () => {
    expectAccount({ ...account, refresh_token: null, id_token: undefined, scope: null, session_state: null } as never, account)
  })

  test("rejects an unknown extra key, even when its value is null or undefined", () => {
    expect(() => expectAccount({ ...account, xata_id: null } as never, account)).toThrow(/unknown key "xata_id"/)
    expect(() => expectAccount({ ...account, id: undefined } as never, account)).toThrow(/unknown key "id"/)
  })

  test("rejects an unknown extra key with a value", () => {
    expect(() => expectAccount({ ...account, id: "rec_1" } as never, account)).toThrow()
  })

  test("rejects a given field coming back null", () => {
    expect(() => expectAccount({ ...account, access_token: null } as never, account)).toThrow()
  })

  test("rejects a missing field", () => {
    const { access_token: _, ...rest } = account
    expect(() => expectAccount(rest, account)).toThrow()
  })
})
