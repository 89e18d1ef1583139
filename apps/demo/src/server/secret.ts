/**
 * The signing/encryption secret: `AUTH_SECRET` when set; otherwise a development secret generated on
 * first start and kept in `.data/auth-secret` (git-ignored), with a warning, so sessions survive
 * restarts without any configuration.
 */
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export function dataDir(env: { get(name: string): string | undefined }): string {
  return env.get("DEMO_DATA_DIR") ?? join(process.cwd(), ".data")
}

export function demoSecret(env: { get(name: string): string | undefined }): string {
  const fromEnv = env.get("AUTH_SECRET")
  if (fromEnv) return fromEnv
  const dir = dataDir(env)
  const file = join(dir, "auth-secret")
  if (existsSync(file)) return readFileSync(file, "utf8").trim()
  mkdirSync(dir, { recursive: true })
  const secret = randomBytes(32).toString("base64url")
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  console.warn(`[demo] AUTH_SECRET is not set: generated a development secret in ${file}. Set AUTH_SECRET in production.`)
  return secret
}
