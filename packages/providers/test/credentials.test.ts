import { describe, expect, it } from "vitest"
import Credentials from "../src/credentials.js"
import { InvalidProviderOptions } from "../src/errors.js"

describe("Credentials()", () => {
  const authorize = async (c: Partial<Record<"username" | "password", unknown>>) => (c.username === "jane" && c.password === "pw" ? { id: "1", name: "Jane" } : null)

  it("defaults id and name, keeps authorize and the credentials form", async () => {
    const credentials = { username: { label: "User name" }, password: { label: "Password", type: "password" } }
    const options = { credentials, authorize }
    const provider = Credentials(options)
    expect(provider).toMatchObject({ id: "credentials", name: "Credentials", type: "credentials", credentials })
    expect(provider.options).toBe(options)
    const request = new Request("http://localhost/auth/callback/credentials", { method: "POST" })
    expect(await provider.authorize({ username: "jane", password: "pw" }, request)).toEqual({ id: "1", name: "Jane" })
    expect(await provider.authorize({ username: "jane", password: "nope" }, request)).toBeNull()
  })

  it("takes id and name from the options, and an empty form when none is given", () => {
    const provider = Credentials({ id: "otp", name: "One-time code", authorize })
    expect(provider).toMatchObject({ id: "otp", name: "One-time code", type: "credentials", credentials: {} })
  })

  it("refuses a config without authorize", () => {
    expect(() => Credentials({} as never)).toThrow(InvalidProviderOptions)
    expect(() => Credentials({ authorize: "yes" } as never)).toThrow(/"authorize" must be a function/)
  })
})
