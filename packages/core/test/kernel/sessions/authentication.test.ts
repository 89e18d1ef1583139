import { describe, expect, it } from "vitest"
import type { JWT } from "@authlib/jwt"
import { withAuthenticationClaims } from "../../../src/kernel/sessions/authentication.js"

/** The object-rest form the loop replaced: the reference the copy must equal. */
function reference(token: JWT, facts: { time: number; amr: readonly string[] } | undefined, sessionStart: number): JWT {
  const { auth_time: _t, amr: _a, sessionStart: _s, ...rest } = token
  if (!facts) return { ...rest, sessionStart }
  return { ...rest, auth_time: facts.time, amr: [...facts.amr], sessionStart }
}

/** Own keys (strings and symbols) in order, with their values and whether each is enumerable. */
const shape = (o: object) => Reflect.ownKeys(o).map((k) => [k, (o as Record<PropertyKey, unknown>)[k], Object.getOwnPropertyDescriptor(o, k)?.enumerable])

describe("withAuthenticationClaims", () => {
  const tag = Symbol("tag")
  const tokens: Record<string, () => JWT> = {
    "a plain token": () => ({ name: "Ada", email: "ada@example.com", sub: "u1" }),
    "a token with the claims already": () => ({ sub: "u1", auth_time: 1, amr: ["otp"], sessionStart: 2, role: "admin" }),
    "an own __proto__ key (as JSON.parse makes)": () => JSON.parse('{"sub":"u1","__proto__":{"polluted":true},"amr":"x"}') as JWT,
    "integer-like keys and a symbol": () => ({ b: 1, 2: "two", a: 2, 1: "one", [tag]: "kept" }) as JWT,
    "an inherited enumerable key": () => Object.assign(Object.create({ inherited: 1 }) as JWT, { sub: "u1" }),
  }
  for (const [name, make] of Object.entries(tokens)) {
    for (const facts of [undefined, { time: 1_795_000_000, amr: ["pwd"] }]) {
      it(`copies ${name} as the object-rest form does (${facts ? "with" : "without"} facts)`, () => {
        const token = make()
        const out = withAuthenticationClaims(token, facts, 1_795_000_001)
        expect(shape(out)).toEqual(shape(reference(token, facts, 1_795_000_001)))
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
      })
    }
  }

  it("never shares the amr array of the facts", () => {
    const facts = { time: 1, amr: ["pwd"] }
    expect(withAuthenticationClaims({}, facts, 2).amr).not.toBe(facts.amr)
  })
})
