/**
 * The configuration, per request: the user's function of the request event, then the environment
 * (Qwik's `ev.env` getter) for whatever it left unset.
 */
import { DEFAULT_BASE_PATH } from "@authlib/core/internal"
import { setEnvDefaults as coreSetEnvDefaults, type AuthConfig } from "@authlib/core"
import type { QRL } from "@builder.io/qwik"
import type { RequestEventCommon } from "@builder.io/qwik-city"

/** The configuration of `QwikAuth$`: core's `AuthConfig` without `raw`, which the binding owns. */
export type QwikAuthConfig = Omit<AuthConfig, "raw">

/** What `QwikAuth$` receives: a function of the request event returning the configuration. */
export type QwikAuthConfigFn = (ev: RequestEventCommon) => QwikAuthConfig | Promise<QwikAuthConfig>


/**
 * Fills `config` from Qwik's environment getter (`ev.env`): `AUTH_SECRET` (and `AUTH_SECRET_1..3`),
 * `WEBAUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_REDIRECT_PROXY_URL`, `AUTH_<PROVIDER>_ID/_SECRET/_ISSUER`,
 * as core's `setEnvDefaults` reads them, then `basePath` to `/auth`. Values already set win.
 * Returns nothing: like core's, it writes the caller's object (spec section 4).
 */
export function setEnvDefaults(env: RequestEventCommon["env"], config: QwikAuthConfig): void {
  coreSetEnvDefaults(env, config)
  config.basePath ??= DEFAULT_BASE_PATH
}

/** Configs already filled: a function returning the same object every request fills it once. */
const filled = new WeakSet<QwikAuthConfig>()

/** Calls the user's function for this request and applies the environment defaults. */
export async function loadConfig(configQrl: QRL<QwikAuthConfigFn>, ev: RequestEventCommon): Promise<QwikAuthConfig> {
  const config = await configQrl(ev)
  if (!filled.has(config)) {
    setEnvDefaults(ev.env, config)
    filled.add(config)
  }
  return config
}
