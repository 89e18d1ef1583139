/**
 * `@simplewebauthn/server`, loaded through the provider the first time a passkey request needs it
 * (core never imports it: apps without passkeys do not install it).
 */
import { Configuration } from "../../kernel/errors/errors.js"
import type { SimpleWebAuthnServer, WebAuthnConfig } from "../../kernel/types/providers.js"

const loaded = new WeakMap<WebAuthnConfig, Promise<SimpleWebAuthnServer>>()

async function load(provider: WebAuthnConfig): Promise<SimpleWebAuthnServer> {
  try {
    const server = await provider.simpleWebAuthn()
    if (typeof server?.verifyAuthenticationResponse !== "function") throw new TypeError("the module has no verifyAuthenticationResponse")
    return server
  } catch (err) {
    throw new Configuration(`Passkey provider "${provider.id}" needs "@simplewebauthn/server": install it (pnpm add @simplewebauthn/server)`, {
      code: "WEBAUTHN_MODULE_MISSING",
      cause: { provider: provider.id, err: err as Error },
    })
  }
}

/** The provider's WebAuthn library; a failed load is retried on the next request. */
export function webAuthnServer(provider: WebAuthnConfig): Promise<SimpleWebAuthnServer> {
  let pending = loaded.get(provider)
  if (!pending) {
    pending = load(provider)
    loaded.set(provider, pending)
    pending.catch(() => loaded.delete(provider))
  }
  return pending
}
