/**
 * The rule of two factors, driven through every combination (property-style): every first factor
 * (password, e-mail link, OIDC at a real OpenID provider, a passkey verified with or without user
 * verification) × every second factor (none, TOTP, a backup code, the same passkey, another of the
 * user's passkeys) × `passkeyCountsAsTwoFactors` × both session strategies. The property: a session
 * exists only after two independent factors (or a passkey with user verification where it counts
 * as two), and its `amr` has `mfa` exactly then. A passkey never finishes a sign-in a passkey began.
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../../src/index.js"
import { requireRecentAuthentication } from "../../../src/index.js"
import { emailProvider, followLink, requestLink, type Outbox } from "../email/helpers.js"
import { browserFor } from "../oauth/helpers/app.js"
import { useLocalOidc } from "../oauth/helpers/local-oidc.js"
import { loginAtOP } from "@authlib/e2e-kit/oidc/op-login"
import { SoftAuthenticator } from "../webauthn/authenticator.js"
import { answer, options, passkeyAdapter, passkeyProvider } from "../webauthn/setup.js"
import { alice, Client, config as baseConfig, credentials, ORIGIN } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { appRequest, codeAt, sessionCookie } from "../../helpers/two-factor.js"

const oidc = useLocalOidc([`${ORIGIN}/auth/callback/op`])

type First = "password" | "e-mail link" | "oidc" | "passkey, user verified" | "passkey, no user verification"
type Second = "none" | "totp" | "backup code" | "same passkey" | "other passkey"
const FIRSTS: First[] = ["password", "e-mail link", "oidc", "passkey, user verified", "passkey, no user verification"]
const SECONDS: Second[] = ["none", "totp", "backup code", "same passkey", "other passkey"]

/** Alice with two passkeys, an OIDC account and TOTP enabled; the passkey provider asks user verification as `first` needs. */
async function world(strategy: "jwt" | "database", counts: boolean, first: First) {
  const adapter = twoFactorAdapter(passkeyAdapter())
  adapter.users.set(alice.id!, { ...alice, id: alice.id!, email: alice.email!, emailVerified: new Date() })
  const outbox: Outbox = { sent: [] }
  const userVerification = first === "passkey, no user verification" ? "preferred" : "required"
  const config: AuthConfig = baseConfig({
    url: ORIGIN,
    adapter,
    session: { strategy },
    rateLimit: false,
    experimental: { enableWebAuthn: true },
    providers: [credentials(), emailProvider(outbox), oidc(), passkeyProvider({ userVerification })],
    twoFactor: { issuer: "Example", passkeyCountsAsTwoFactors: counts },
  })
  const device = new SoftAuthenticator("localhost", ORIGIN)
  const owner = new Client(config)
  expect((await owner.signIn()).status).toBe(302)
  for (let i = 0; i < 2; i++) {
    const { body } = await options(owner, "?action=register")
    expect((await answer(owner, "register", device.register(body.options))).status).toBe(302)
  }
  expect(await oidcSignIn(owner, config)).toBe(302)
  expect(adapter.accounts.some((a) => a.provider === "op" && a.userId === alice.id)).toBe(true)
  const enrolled = await owner.request("/auth/two-factor", { json: { csrfToken: await owner.csrfToken(), action: "totp-enroll" } })
  const { secret } = (await enrolled.json()) as { secret: string }
  const confirmed = await owner.request("/auth/two-factor", { json: { csrfToken: await owner.csrfToken(), action: "totp-confirm", code: codeAt(secret) } })
  const { backupCodes } = (await confirmed.json()) as { backupCodes: string[] }
  expect(backupCodes).toHaveLength(10)
  return { config, outbox, device, secret, backupCodes }
}
type World = Awaited<ReturnType<typeof world>>

/** An OIDC sign-in through the real provider; the app's answer's status. */
async function oidcSignIn(client: Client, config: AuthConfig): Promise<number> {
  const start = await client.post("/auth/signin/op", { callbackUrl: `${ORIGIN}/` })
  const reply = await loginAtOP(browserFor(config, ORIGIN), start.headers.get("location")!, "alice")
  if (reply.kind === "redirect") return (await client.request(reply.url)).status
  return (await client.request(new URL(reply.action).pathname, { method: "POST", form: reply.fields, headers: { origin: reply.from } })).status
}

async function signInFirst(w: World, client: Client, first: First): Promise<void> {
  if (first === "password") await client.signIn()
  else if (first === "e-mail link") {
    await requestLink(client, alice.email!)
    await followLink(client, w.outbox.sent.at(-1)!.url)
  } else if (first === "oidc") await oidcSignIn(client, w.config)
  else {
    const { body } = await options(client, "?action=authenticate")
    await answer(client, "authenticate", w.device.authenticate(body.options, w.device.credentials[0]))
  }
}

async function offerSecond(w: World, client: Client, second: Second): Promise<void> {
  if (second === "none") return
  if (second === "totp" || second === "backup code") {
    await client.post("/auth/two-factor", { action: "verify", code: second === "totp" ? codeAt(w.secret, 1) : w.backupCodes[0]! })
    return
  }
  const { body } = await options(client, "?action=authenticate")
  const credential = w.device.credentials[second === "same passkey" ? 0 : 1]
  await client.post("/auth/two-factor", { action: "verify-passkey", data: JSON.stringify(w.device.authenticate(body.options, credential)) })
}

/** What the rule says of a combination: a session or none, and whether its amr has mfa. */
function expected(first: First, second: Second, counts: boolean): { session: boolean; mfa: boolean } {
  const passkeyFirst = first.startsWith("passkey")
  // A passkey with user verification counting as two: signed in with mfa at once, no second step.
  if (first === "passkey, user verified" && counts) return { session: true, mfa: true }
  if (second === "none") return { session: false, mfa: false }
  const independent = !(passkeyFirst && second.endsWith("passkey"))
  return { session: independent, mfa: independent }
}

describe.each(["database", "jwt"] as const)("every first factor × every second factor, %s sessions", (strategy) => {
  for (const counts of [true, false]) {
    for (const first of FIRSTS) {
      it(`${first}, passkeyCountsAsTwoFactors: ${counts}`, async () => {
        for (const second of SECONDS) {
          const w = await world(strategy, counts, first)
          const client = new Client(w.config)
          await signInFirst(w, client, first)
          await offerSecond(w, client, second)
          const want = expected(first, second, counts)
          const label = `${first} + ${second}`
          expect(sessionCookie(client) !== undefined, label).toBe(want.session)
          if (!want.session) continue
          const { amr } = await requireRecentAuthentication(appRequest(client), w.config)
          expect(amr.includes("mfa"), `${label}: amr ${amr.join(" ")}`).toBe(want.mfa)
        }
      }, 30_000)
    }
  }
})
