/**
 * Passkeys (WebAuthn), experimental: set `experimental: { enableWebAuthn: true }`. Needs an
 * adapter with the authenticator methods and `@simplewebauthn/server` (an optional peer dependency:
 * `pnpm add @simplewebauthn/server`), loaded the first time a passkey request arrives.
 *
 * ```ts
 * import Passkey from "@authlib/providers/passkey"
 * Auth(request, {
 *   url: "https://app.example.com", // the RP ID defaults to its host name
 *   adapter,
 *   experimental: { enableWebAuthn: true },
 *   providers: [Passkey()],
 * })
 * ```
 * @module
 */
import type { SimpleWebAuthnServer, WebAuthnConfig } from "@authlib/core"
import { getPublicSuffix } from "tldts"
import { withOptions } from "./shared/merge.js"

/** The named fields of a type (its index signature left out, which `Omit` would keep alone). */
type Named<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }

/** What `Passkey()` takes: every named field of the WebAuthn provider config, all optional. */
export type PasskeyUserConfig = Partial<Omit<Named<WebAuthnConfig>, "type">>

/** The module specifier, in a variable so bundlers leave the optional peer alone. */
const SERVER_MODULE = "@simplewebauthn/server"

/**
 * Imports `@simplewebauthn/server`.
 * @internal exported for tests
 */
export async function loadSimpleWebAuthn(specifier = SERVER_MODULE): Promise<SimpleWebAuthnServer> {
  return (await import(specifier)) as SimpleWebAuthnServer
}

/**
 * Whether `hostname` is a public suffix (`com`, `co.uk`) or a private registry suffix such as
 * `github.io` or `vercel.app`, by the Public Suffix List: a passkey for it would be usable by
 * every site under it.
 */
export function isPublicSuffix(hostname: string): boolean {
  return getPublicSuffix(hostname, { allowPrivateDomains: true }) === hostname
}

/**
 * The Passkey provider factory: `id` "passkey", `name` "Passkey". Defaults: user verification
 * required, attestation `none`, discoverable credentials (resident keys), a 5-minute challenge,
 * the relying party from the app URL, no new accounts without a signed-in user.
 */
export default function Passkey(options: PasskeyUserConfig = {}): WebAuthnConfig {
  const preset: WebAuthnConfig = {
    id: "passkey",
    name: "Passkey",
    type: "webauthn",
    simpleWebAuthn: () => loadSimpleWebAuthn(),
    isPublicSuffix,
    userVerification: "required",
    attestationType: "none",
    enableConditionalUI: true,
  }
  return withOptions(preset, options as Record<string, unknown>) as WebAuthnConfig
}
export { Passkey }
