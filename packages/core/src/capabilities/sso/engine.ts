/**
 * The SAML engine, loaded through the SSO provider the first time a SAML request needs it (core
 * never imports `@authlib/saml`: it stays runtime-neutral, and apps without SAML do not install it).
 */
import { Configuration } from "../../kernel/errors/errors.js"
import type { SamlEngine, SsoConfig } from "./provider.js"

const loaded = new WeakMap<SsoConfig, Promise<SamlEngine>>()

async function load(provider: SsoConfig): Promise<SamlEngine> {
  try {
    const engine = await provider.saml()
    if (typeof engine?.verifySamlResponse !== "function") throw new TypeError("the module has no verifySamlResponse")
    return engine
  } catch (err) {
    throw new Configuration(`SSO provider "${provider.id}" needs "@authlib/saml" for SAML connections: install it (pnpm add @authlib/saml)`, {
      code: "CONFIG_INVALID",
      cause: { provider: provider.id, missing: "@authlib/saml", err: err as Error },
    })
  }
}

/** The provider's SAML engine; a failed load is retried on the next request. */
export function samlEngine(provider: SsoConfig): Promise<SamlEngine> {
  let pending = loaded.get(provider)
  if (!pending) {
    pending = load(provider)
    loaded.set(provider, pending)
    pending.catch(() => loaded.delete(provider))
  }
  return pending
}
