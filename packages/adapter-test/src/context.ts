import { test as vitestTest } from "vitest"
import type { Adapter } from "@authlib/core"
import type { Fixtures, RecordFactory, SkipTest, SuiteContext, TestOptions } from "./types.js"

const DAY_MS = 24 * 60 * 60 * 1000

/** A random base64url string of `bytes` random bytes (the shape of core's hashed session tokens). */
export function randomToken(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes))
  let binary = ""
  for (const byte of raw) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** A date `ms` from now, truncated to whole seconds so every store can keep it exactly. */
export function fromNow(ms: number): Date {
  return new Date(Math.floor((Date.now() + ms) / 1000) * 1000)
}

function factory(fixtures: Fixtures): RecordFactory {
  return {
    user: (overrides) => ({
      id: crypto.randomUUID(),
      name: "Ada Lovelace",
      email: `ada-${crypto.randomUUID()}@example.com`,
      image: "https://example.com/ada.png",
      emailVerified: fromNow(-DAY_MS),
      ...fixtures.user,
      ...overrides,
    }),
    account: (userId, overrides) => ({
      type: "oauth",
      provider: "github",
      providerAccountId: crypto.randomUUID(),
      access_token: randomToken(),
      refresh_token: randomToken(),
      id_token: `${randomToken(16)}.${randomToken(48)}.${randomToken(32)}`,
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      scope: "read:user user:email",
      token_type: "bearer",
      session_state: randomToken(8),
      ...fixtures.account,
      userId,
      ...overrides,
    }),
    session: (userId, overrides) => ({
      sessionToken: randomToken(),
      userId,
      expires: fixtures.sessionExpires ?? fixtures.session?.expires ?? fromNow(30 * DAY_MS),
      ...overrides,
    }),
    verificationToken: (overrides) => ({
      identifier: `ada-${crypto.randomUUID()}@example.com`,
      token: randomToken(),
      expires: fixtures.verificationTokenExpires ?? fromNow(DAY_MS),
      ...overrides,
    }),
    authenticator: (userId, providerAccountId, overrides) => ({
      credentialID: randomToken(32),
      userId,
      providerAccountId,
      counter: 0,
      credentialBackedUp: true,
      credentialPublicKey: randomToken(77),
      credentialDeviceType: "multiDevice",
      transports: "internal,hybrid",
      ...overrides,
    }),
    sessionUpdateExpires: () => fixtures.sessionUpdateExpires ?? fromNow(60 * DAY_MS),
  }
}

function checkSkips(skips: readonly SkipTest[], option: string): Map<string, string> {
  const byName = new Map<string, string>()
  for (const skip of skips) {
    if (typeof skip.reason !== "string" || skip.reason.trim() === "") {
      throw new TypeError(`${option}: "${skip.name}" needs a non-empty reason`)
    }
    byName.set(skip.name, skip.reason)
  }
  return byName
}

/** How tests are registered: vitest's `test` and `test.skip` (replaceable to test the skip rules). */
export interface Registrar {
  run(name: string, fn: () => Promise<void>): void
  skip(name: string, fn: () => Promise<void>): void
}

const vitestRegistrar: Registrar = {
  run: (name, fn) => void vitestTest(name, fn),
  skip: (name, fn) => void vitestTest.skip(name, fn),
}

/** Registers tests honouring a skip list; `assertSkipsUsed` reports entries that named no test. */
export interface SkipAwareRegistrar {
  test(name: string, fn: () => Promise<void>): void
  assertSkipsUsed(): void
}

/**
 * Registers tests, skipping (with the reason in the name) those `skips` lists. Skips are checked
 * eagerly: an entry naming no test is reported by `assertSkipsUsed`, so a typo cannot silently
 * disable nothing while seeming to skip. `option` names the option in the error messages.
 */
export function skipAwareRegistrar(
  skips: readonly SkipTest[],
  registrar: Registrar = vitestRegistrar,
  option = "skipTests",
): SkipAwareRegistrar {
  const byName = checkSkips(skips, option)
  const used = new Set<string>()
  return {
    test(name, fn) {
      const reason = byName.get(name)
      if (reason === undefined) return registrar.run(name, fn)
      used.add(name)
      registrar.skip(`${name} (skipped: ${reason})`, fn)
    },
    assertSkipsUsed() {
      const unused = [...byName.keys()].filter((name) => !used.has(name))
      if (unused.length > 0) throw new TypeError(`${option} names no test: ${unused.map((n) => `"${n}"`).join(", ")}`)
    },
  }
}

/** Builds the context shared by the suites. */
export function createContext(
  options: TestOptions,
  registrar: Registrar = vitestRegistrar,
): SuiteContext & { assertSkipsUsed(): void } {
  const registry = skipAwareRegistrar(options.skipTests ?? [], registrar)
  const concurrency = options.concurrency ?? 16
  if (!Number.isInteger(concurrency) || concurrency < 2 || concurrency % 2 !== 0) {
    throw new TypeError(`concurrency must be an even integer >= 2, got ${concurrency}`)
  }
  return {
    adapter: options.adapter as Required<Adapter>,
    db: options.db,
    test: registry.test,
    webauthn: options.testWebAuthnMethods === true,
    concurrency,
    make: factory(options.fixtures ?? {}),
    assertSkipsUsed: registry.assertSkipsUsed,
  }
}
