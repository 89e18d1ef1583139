import { expect } from "vitest"
import type { SuiteContext } from "./types.js"
import { storedUser } from "./shapes.js"

const UNICODE_NAME = "Zoë 李小龍 \u05E9\u05DC\u05D5\u05DD \u{1F469}\u200D\u{1F4BB} e\u0301 \u{1D54F}"

/** createUser, getUser, getUserByEmail, updateUser, deleteUser. */
export function usersSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  test("createUser returns the stored user with exact shape", async () => {
    const input = make.user()
    const created = await adapter.createUser(input)
    expect(created.id).toBeTypeOf("string")
    expect(created).toStrictEqual(storedUser(input, created.id))
    expect(await db.user(created.id)).toStrictEqual(created)
  })

  test("createUser stores a user with null in every optional field", async () => {
    const input = make.user({ name: null, image: null, emailVerified: null })
    const created = await adapter.createUser(input)
    expect(created).toStrictEqual(storedUser(input, created.id))
    expect(await db.user(created.id)).toStrictEqual(created)
    expect(await adapter.getUser(created.id)).toStrictEqual(created)
  })

  test("createUser fills absent optional fields with null", async () => {
    const { name: _name, image: _image, ...input } = make.user({ emailVerified: null })
    const created = await adapter.createUser(input)
    expect(created.name).toBeNull()
    expect(created.image).toBeNull()
    expect(await adapter.getUser(created.id)).toStrictEqual(created)
  })

  test("createUser keeps unicode and long values unchanged", async () => {
    const input = make.user({
      name: UNICODE_NAME + "ø".repeat(5000),
      email: `${"ü".repeat(60)}.${crypto.randomUUID()}@exämple.com`,
      image: `https://example.com/${"a/".repeat(2000)}avatar.png?q=${encodeURIComponent(UNICODE_NAME)}`,
    })
    const created = await adapter.createUser(input)
    expect(created).toStrictEqual(storedUser(input, created.id))
    expect(await adapter.getUserByEmail(input.email)).toStrictEqual(created)
  })

  test("getUser returns the stored user", async () => {
    const created = await adapter.createUser(make.user())
    expect(await adapter.getUser(created.id)).toStrictEqual(created)
  })

  test("getUser returns null for an unknown id", async () => {
    expect(await adapter.getUser(crypto.randomUUID())).toBeNull()
    expect(await adapter.getUser("")).toBeNull()
  })

  test("getUserByEmail returns the stored user", async () => {
    const input = make.user()
    const created = await adapter.createUser(input)
    expect(await adapter.getUserByEmail(input.email)).toStrictEqual(created)
  })

  test("getUserByEmail returns null for an unknown email", async () => {
    expect(await adapter.getUserByEmail(`nobody-${crypto.randomUUID()}@example.com`)).toBeNull()
  })

  test("updateUser changes only the given fields and returns the whole user", async () => {
    const created = await adapter.createUser(make.user())
    const emailVerified = new Date(Math.floor(Date.now() / 1000) * 1000)
    const updated = await adapter.updateUser({ id: created.id, name: "Ada King", emailVerified })
    const expected = { ...created, name: "Ada King", emailVerified }
    expect(updated).toStrictEqual(expected)
    expect(await db.user(created.id)).toStrictEqual(expected)
  })

  test("updateUser can set optional fields to null", async () => {
    const created = await adapter.createUser(make.user())
    const updated = await adapter.updateUser({ id: created.id, name: null, image: null, emailVerified: null })
    const expected = { ...created, name: null, image: null, emailVerified: null }
    expect(updated).toStrictEqual(expected)
    expect(await db.user(created.id)).toStrictEqual(expected)
  })

  test("updateUser changes the email used by getUserByEmail", async () => {
    const input = make.user()
    const created = await adapter.createUser(input)
    const email = `new-${crypto.randomUUID()}@example.com`
    await adapter.updateUser({ id: created.id, email })
    expect(await adapter.getUserByEmail(input.email)).toBeNull()
    expect(await adapter.getUserByEmail(email)).toStrictEqual({ ...created, email })
  })

  test("deleteUser removes the user", async () => {
    const created = await adapter.createUser(make.user())
    await adapter.deleteUser(created.id)
    expect(await db.user(created.id)).toBeNull()
    expect(await adapter.getUser(created.id)).toBeNull()
  })

  test("deleteUser removes the user's sessions, accounts and authenticators", async () => {
    const user = await adapter.createUser(make.user())
    const other = await adapter.createUser(make.user())
    const session = await adapter.createSession(make.session(user.id))
    const otherSession = await adapter.createSession(make.session(other.id))
    const account = make.account(user.id)
    await adapter.linkAccount(account)
    const passkey = make.account(user.id, { type: "webauthn", provider: "passkey" })
    const credential = make.authenticator(user.id, passkey.providerAccountId)
    if (ctx.webauthn) {
      await adapter.linkAccount(passkey)
      await adapter.createAuthenticator(credential)
    }
    await adapter.deleteUser(user.id)
    expect(await db.session(session.sessionToken)).toBeNull()
    expect(await db.account(account)).toBeNull()
    expect(await adapter.getUserByAccount(account)).toBeNull()
    if (ctx.webauthn) {
      expect(await db.account(passkey)).toBeNull()
      expect(await db.authenticator?.(credential.credentialID)).toBeNull()
      expect(await adapter.listAuthenticatorsByUserId(user.id)).toStrictEqual([])
    }
    expect(await db.session(otherSession.sessionToken)).toStrictEqual(otherSession)
    expect(await db.user(other.id)).toStrictEqual(other)
  })

  test("deleteUser of an unknown id does not throw", async () => {
    const kept = await adapter.createUser(make.user())
    await adapter.deleteUser(crypto.randomUUID())
    expect(await db.user(kept.id)).toStrictEqual(kept)
  })
}
