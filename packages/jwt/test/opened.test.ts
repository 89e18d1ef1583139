/**
 * Tokens opened lately (src/opened.ts): a token decoded again is not decrypted again, but its claims
 * are checked every time; only the first secret's tokens are remembered, so a secret that leaves
 * the rotation takes its tokens with it; another salt, a changed character or another first
 * secret decrypts (and refuses) as before; memory stays bounded.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { createJwtFunctions } from "../src/api.js"
import type { JweCrypto } from "../src/crypto/interface.js"
import { nodeCrypto } from "../src/crypto/node.js"
import { webCrypto } from "../src/crypto/web.js"
import { OpenedTokens, copyPayload } from "../src/opened.js"
import { JWTSessionError } from "../src/index.js"
import { OLD_SECRET, PAYLOAD, SALT, SECRET, flipBit, joseToken, now } from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

/** The token functions on `backend`, counting its decryptions. */
function counted<K>(backend: JweCrypto<K>) {
  const calls = { open: 0 }
  const jwt = createJwtFunctions<K>({ ...backend, open: (key, parts) => (calls.open++, backend.open(key, parts)) })
  return { jwt, calls }
}

async function code(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => expect.fail("expected a rejection"), (e: unknown) => e)
  expect(error).toBeInstanceOf(JWTSessionError)
  return (error as JWTSessionError).code ?? ""
}

describe.each([["node:crypto", nodeCrypto], ["WebCrypto", webCrypto]] as const)("%s", (_, backend) => {
  it("decrypts a token once: the same token decodes again without a decryption, to an equal payload of its own", async () => {
    const { jwt, calls } = counted(backend as JweCrypto<unknown>)
    const token = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT })
    const first = await jwt.decode({ token, secret: SECRET, salt: SALT })
    const second = await jwt.decode({ token, secret: [SECRET, OLD_SECRET], salt: SALT })
    expect(calls.open).toBe(1)
    expect(second).toEqual(first)
    expect(second).not.toBe(first)
    // A caller that changes its payload changes nothing the next decode answers.
    second!.name = "Mallory"
    expect((await jwt.decode({ token, secret: SECRET, salt: SALT }))!.name).toBe(PAYLOAD.name)
  })

  it("answers a remembered token's nested objects and arrays as copies of their own, an own `__proto__` key kept as JSON.parse keeps it", async () => {
    const { jwt, calls } = counted(backend as JweCrypto<unknown>)
    const payload = JSON.parse('{"sub":"u1","__proto__":{"admin":true},"org":{"roles":["owner",{"id":"r2"}]},"10":"ten","n":null}')
    const token = await jwt.encode({ token: payload, secret: SECRET, salt: SALT })
    const first = (await jwt.decode({ token, secret: SECRET, salt: SALT }))!
    const second = (await jwt.decode({ token, secret: SECRET, salt: SALT }))!
    expect(calls.open).toBe(1)
    for (const decoded of [first, second]) {
      expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype)
      expect(Object.hasOwn(decoded, "__proto__")).toBe(true)
      expect((decoded as { admin?: unknown }).admin).toBeUndefined()
    }
    // The same keys in the same order (an integer-like key first, as JSON.parse orders it).
    expect(JSON.stringify(second)).toBe(JSON.stringify(first))
    const org = (decoded: typeof first) => decoded.org as { roles: [string, { id: string }] }
    org(second).roles[1].id = "changed"
    org(second).roles.push("extra")
    ;(second["__proto__"] as { admin: boolean }).admin = false
    const third = (await jwt.decode({ token, secret: SECRET, salt: SALT }))!
    expect(org(third).roles).toEqual(["owner", { id: "r2" }])
    expect(third["__proto__"]).toEqual({ admin: true })
    expect(calls.open).toBe(1)
  })

  it("checks the claims of a remembered token on every decode: expired is refused", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2026-11-29T08:00:00Z"))
    const { jwt, calls } = counted(backend as JweCrypto<unknown>)
    const token = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT, maxAge: 60 })
    expect(await jwt.decode({ token, secret: SECRET, salt: SALT })).toMatchObject(PAYLOAD)
    vi.setSystemTime(new Date("2026-11-29T08:10:00Z"))
    expect(await code(jwt.decode({ token, secret: SECRET, salt: SALT }))).toBe("TOKEN_EXPIRED")
    expect(calls.open).toBe(1)
  })

  it("never remembers a token an older secret opened: once that secret leaves the rotation, its token is refused", async () => {
    const { jwt, calls } = counted(backend as JweCrypto<unknown>)
    const old = await jwt.encode({ token: PAYLOAD, secret: OLD_SECRET, salt: SALT })
    expect(await jwt.decode({ token: old, secret: [SECRET, OLD_SECRET], salt: SALT })).toMatchObject(PAYLOAD)
    expect(await jwt.decode({ token: old, secret: [SECRET, OLD_SECRET], salt: SALT })).toMatchObject(PAYLOAD)
    // Decrypted both times (its kid names the old secret's key), never taken from memory.
    expect(calls.open).toBe(2)
    expect(await code(jwt.decode({ token: old, secret: SECRET, salt: SALT }))).toBe("KID_UNKNOWN")
  })

  it("the same for a token without a kid, tried with every secret in turn", async () => {
    const { jwt, calls } = counted(backend as JweCrypto<unknown>)
    const old = await joseToken({ ...PAYLOAD, exp: now() + 60 }, { secret: OLD_SECRET, kid: null })
    expect(await jwt.decode({ token: old, secret: [SECRET, OLD_SECRET], salt: SALT })).toMatchObject(PAYLOAD)
    expect(await jwt.decode({ token: old, secret: [SECRET, OLD_SECRET], salt: SALT })).toMatchObject(PAYLOAD)
    expect(calls.open).toBe(4)
    expect(await code(jwt.decode({ token: old, secret: SECRET, salt: SALT }))).toBe("DECRYPTION_FAILED")
    // Made with the first secret, it is remembered.
    const current = await joseToken({ ...PAYLOAD, exp: now() + 60 }, { kid: null })
    await jwt.decode({ token: current, secret: [SECRET, OLD_SECRET], salt: SALT })
    await jwt.decode({ token: current, secret: [SECRET, OLD_SECRET], salt: SALT })
    expect(calls.open).toBe(6)
  })

  it("keeps tokens per key: another first secret or salt decrypts (and refuses) as before; a changed character is another token", async () => {
    const { jwt } = counted(backend as JweCrypto<unknown>)
    const token = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT })
    expect(await jwt.decode({ token, secret: SECRET, salt: SALT })).toMatchObject(PAYLOAD)
    expect(await code(jwt.decode({ token, secret: OLD_SECRET, salt: SALT }))).toBe("KID_UNKNOWN")
    expect(await code(jwt.decode({ token, secret: SECRET, salt: "another.salt" }))).toBe("KID_UNKNOWN")
    expect(await code(jwt.decode({ token: flipBit(token, 3), secret: SECRET, salt: SALT }))).toMatch(/DECRYPTION_FAILED|TOKEN_MALFORMED/)
    expect(await jwt.decode({ token, secret: SECRET, salt: SALT })).toMatchObject(PAYLOAD)
  })
})

describe("copyPayload", () => {
  /** A random JSON value: objects with integer-like and `__proto__` keys, arrays, strings, numbers, booleans, null. */
  function randomJson(depth: number, next: () => number): unknown {
    const pick = Math.floor(next() * (depth > 3 ? 4 : 6))
    if (pick === 0) return Math.floor(next() * 2_000_000) / 7 - 100_000
    if (pick === 1) return next().toString(36).slice(2)
    if (pick === 2) return next() < 0.5 ? null : next() < 0.5
    if (pick === 3) return "√é\u{1F600}".repeat(Math.floor(next() * 3))
    if (pick === 4) return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(depth + 1, next))
    const keys = ["sub", "__proto__", "0", "7", "constructor", "a b", "toString", "exp"]
    const text = keys.filter(() => next() < 0.5).map((key) => `${JSON.stringify(key)}:${JSON.stringify(randomJson(depth + 1, next))}`)
    return JSON.parse(`{${text.join(",")}}`)
  }

  it("gives what JSON.parse of the value's text gives, sharing no object with it", () => {
    let seed = 38
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
    const objects = (value: unknown, into: object[] = []): object[] => {
      if (typeof value === "object" && value !== null) {
        into.push(value)
        for (const key of Object.keys(value)) objects((value as Record<string, unknown>)[key], into)
      }
      return into
    }
    for (let i = 0; i < 2_000; i++) {
      const value = randomJson(0, next)
      const copy = copyPayload(value)
      // The same keys in the same order with the same values (vitest's toStrictEqual reads an own
      // `constructor` key as the object's type, so the text is compared).
      expect(JSON.stringify(copy)).toBe(JSON.stringify(value))
      const originals = new Set(objects(value))
      for (const object of objects(copy)) {
        expect(originals.has(object)).toBe(false)
        expect(Object.getPrototypeOf(object)).toBe(Array.isArray(object) ? Array.prototype : Object.prototype)
      }
    }
  })
})

describe("OpenedTokens", () => {
  const opened = { plaintext: "{}", header: { enc: "A256CBC-HS512" as const, fields: {} } }
  const key = {}

  it("holds at most two generations of 256 tokens, keeping the ones found again", () => {
    const tokens = new OpenedTokens()
    for (let i = 0; i < 10_000; i++) {
      tokens.keep(key, `token-${i}`, opened)
      // One token in use all along: found again every time, it is never forgotten.
      expect(tokens.get(key, "token-0")).toBe(opened)
    }
    expect(tokens.size).toBeLessThanOrEqual(512)
    expect(tokens.get(key, "token-9999")).toBe(opened)
    expect(tokens.get(key, "token-5000")).toBeUndefined()
  })

  it("finds a token by its whole text: another text with the same end is not found", () => {
    const tokens = new OpenedTokens()
    const end = "T".repeat(32)
    tokens.keep(key, `aaaa.${end}`, opened)
    expect(tokens.get(key, `aaaa.${end}`)).toBe(opened)
    expect(tokens.get(key, `aaab.${end}`)).toBeUndefined()
    expect(tokens.get(key, end)).toBeUndefined()
    // Short texts key by themselves.
    tokens.keep(key, "abc", opened)
    expect(tokens.get(key, "abc")).toBe(opened)
    expect(tokens.get(key, "bc")).toBeUndefined()
  })

  it("answers a token only for the key that opened it, and holds 512 at most whatever the number of keys", () => {
    const tokens = new OpenedTokens()
    tokens.keep(key, "the-token", opened)
    expect(tokens.get({}, "the-token")).toBeUndefined()
    expect(tokens.get(key, "the-token")).toBe(opened)
    for (let i = 0; i < 2_000; i++) tokens.keep({}, `token-${i}`, opened)
    expect(tokens.size).toBeLessThanOrEqual(512)
  })

  it("does not keep a token longer than 4,096 characters", () => {
    const tokens = new OpenedTokens()
    tokens.keep(key, "x".repeat(4097), opened)
    expect(tokens.size).toBe(0)
    tokens.keep(key, "x".repeat(4096), opened)
    expect(tokens.get(key, "x".repeat(4096))).toBe(opened)
  })
})
