/// <reference types="node" />
/**
 * The configuration the Node adapter runs: the app's, completed from `process.env` as Auth.js's
 * framework packages do (`AUTH_SECRET`, `WEBAUTH_URL`, `AUTH_TRUST_HOST`, provider
 * `AUTH_<ID>_ID`/`_SECRET`/`_ISSUER`; see `setEnvDefaults`). A copy, made once per config object,
 * so the app's object is never changed and core's per-config cache still holds.
 */
import { setEnvDefaults } from "../registry.js"
import type { AuthConfig } from "../kernel/types/config.js"

const completed = new WeakMap<AuthConfig, AuthConfig>()

export function withEnvDefaults(config: AuthConfig): AuthConfig {
  let found = completed.get(config)
  if (!found) {
    found = { ...config, providers: [...config.providers] }
    setEnvDefaults(process.env, found)
    completed.set(config, found)
  }
  return found
}
