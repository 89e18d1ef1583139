/**
 * The demo's password users. Only scrypt hashes are stored (`scrypt$N$r$p$salt$hash`, base64url);
 * the demo password is printed on the sign-in page because this is a demo, not because it is kept.
 */
import { scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto"
import { promisify } from "node:util"
import { DEMO_LOGIN } from "../lib/demo-login"

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: ScryptOptions) => Promise<Buffer>

export interface DemoUser {
  id: string
  name: string
  email: string
  passwordHash: string
}

const users: readonly DemoUser[] = [
  {
    id: "demo-ada",
    name: "Ada Lovelace",
    email: DEMO_LOGIN.email,
    passwordHash: "scrypt$16384$8$1$oQrAwgRt9fn8YvN3IZMBcg$1q_H5CdY9xRv6eohRPoC-2S_SrjlGSoaUU3CsT5h29Y",
  },
]

/** The demo's password users without their hashes (the adapter stores them too, see auth-config.ts). */
export function demoUsers(): Array<Omit<DemoUser, "passwordHash">> {
  return users.map(({ passwordHash: _hash, ...safe }) => safe)
}

/** Checks `password` against a stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$")
  if (scheme !== "scrypt" || !salt || !hash) return false
  const expected = Buffer.from(hash, "base64url")
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, { N: Number(n), r: Number(r), p: Number(p) })
  return timingSafeEqual(actual, expected)
}

/** The user with this e-mail and password, or null. Always runs scrypt, so timing does not tell which was wrong. */
export async function findUser(email: string, password: string): Promise<Omit<DemoUser, "passwordHash"> | null> {
  const user = users.find((u) => u.email === email.trim().toLowerCase())
  const ok = await verifyPassword(password, user?.passwordHash ?? users[0]!.passwordHash)
  if (!user || !ok) return null
  const { passwordHash: _hash, ...safe } = user
  return safe
}
