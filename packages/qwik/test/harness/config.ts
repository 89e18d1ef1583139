/** The configuration the binding's tests run core with: a credentials provider and an OAuth one. */
import { CredentialsSignin, MemoryRateLimitStore, type LoggerInstance } from "@authlib/core"
import type { QwikAuthConfig } from "../../src/index.js"

export const ORIGIN = "http://app.test"
export const SECRET = "binding-tests-secret-0123456789abcdef"

/** `authorize` refuses a wrong password with this code. */
export class WrongPassword extends CredentialsSignin {
  constructor() {
    super("wrong password", { code: "wrong_password" })
  }
}

export const ada = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.test" }

/**
 * What core logged at `warn` and `debug` in these tests (the refusals they provoke on purpose, notes
 * such as "no client address"): recorded here, not printed. `error` stays core's console logger,
 * so a real fault still shows; a test that expects one passes its own `logger.error`.
 */
export const logged: Array<{ level: "warn" | "debug"; code: string; message: unknown[] }> = []
const testLogger: Partial<LoggerInstance> = {
  warn: (code, ...message) => void logged.push({ level: "warn", code, message }),
  debug: (code, ...message) => void logged.push({ level: "debug", code, message }),
}

/** A test's config: its own rate-limit counters (core's default store is one per process) and the quiet logger above. */
export function testConfig(overrides: Partial<QwikAuthConfig> = {}): QwikAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    rateLimit: { store: new MemoryRateLimitStore() },
    providers: [
      {
        id: "password",
        name: "Password",
        type: "credentials",
        credentials: { email: { label: "E-mail" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (credentials.email !== ada.email) return null
          if (credentials.password !== "correct horse") throw new WrongPassword()
          return ada
        },
      },
      {
        id: "idp",
        name: "Test IdP",
        type: "oauth",
        authorization: "https://idp.test/authorize",
        token: "https://idp.test/token",
        userinfo: "https://idp.test/userinfo",
        clientId: "client-1",
        clientSecret: "client-secret",
      },
    ],
    ...overrides,
    logger: { ...testLogger, ...overrides.logger },
  }
}
