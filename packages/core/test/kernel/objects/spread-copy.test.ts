import { describe, expect, it } from "vitest"
import { spreadCopy } from "../../../src/kernel/objects/spread-copy.js"

/** Own keys with their descriptors, in order, and the prototype: what tells two copies apart. */
const shape = (o: object) => ({
  proto: Object.getPrototypeOf(o),
  keys: Reflect.ownKeys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)]),
})

describe("spreadCopy", () => {
  const tag = Symbol("tag")
  const hidden = Symbol("hidden")
  const cases: Record<string, () => object> = {
    "an account": () => ({ provider: "credentials", providerAccountId: "u1", type: "credentials" }),
    "an own __proto__ key (JSON.parse), which must not set the prototype": () => JSON.parse('{"a":1,"__proto__":{"admin":true},"b":2}'),
    "enumerable and non-enumerable symbols": () => {
      const o: Record<PropertyKey, unknown> = { a: 1, [tag]: "t" }
      Object.defineProperty(o, hidden, { value: "h", enumerable: false })
      return o
    },
    "a non-enumerable key and a getter": () => {
      const o: Record<string, unknown> = { a: 1 }
      Object.defineProperty(o, "secret", { value: 2, enumerable: false })
      Object.defineProperty(o, "computed", { get: () => 3, enumerable: true })
      return o
    },
    "integer-like keys (their own order)": () => ({ b: 1, 2: "two", a: 3, 1: "one" }),
    "an inherited key, never copied": () => Object.create({ inherited: true }, { own: { value: 1, enumerable: true } }),
    "a null-prototype object": () => Object.assign(Object.create(null), { a: 1, b: 2 }),
  }
  for (const [name, make] of Object.entries(cases)) {
    it(`copies what { ...source } copies, in the same order: ${name}`, () => {
      const source = make()
      expect(shape(spreadCopy(source))).toEqual(shape({ ...source }))
    })
  }

  it("copies a key added afterwards the way the spread form would have it", () => {
    const account = JSON.parse('{"provider":"p","__proto__":{"x":1}}') as Record<string, unknown>
    const copy = spreadCopy(account)
    copy.userId = "u1"
    expect(shape(copy)).toEqual(shape({ ...account, userId: "u1" }))
    expect((copy as { x?: unknown }).x).toBeUndefined()
  })
})
