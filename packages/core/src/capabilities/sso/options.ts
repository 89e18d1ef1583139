/**
 * The `sso` option: on when present (like `twoFactor`), with `organizations` configured.
 */
import { Configuration } from "../../kernel/errors/errors.js"
import type { OptionsDeclaration } from "../../kernel/types/capability.js"

// Re-exported so that the emitted types of every module naming `SsoOptions` load the rate-limit section (`rateLimit.sso`).
export type { SsoRateLimitOptions } from "./rate-limits.js"

/** Answers like `node:dns/promises`' `resolveTxt`: each TXT record as its strings. */
export type ResolveTxt = (hostname: string) => Promise<string[][]>

/** The `sso` option. */
export interface SsoOptions {
  /**
   * Looks up TXT records for domain verification. Default: the SSO provider's, which `SSO()` sets
   * to `node:dns/promises`' `resolveTxt` (core itself imports no Node module).
   */
  resolveTxt?: ResolveTxt
  /** The largest SAML Response (its base64 text, then the decoded XML) accepted, in bytes. Default 262144 (256 KiB), at most 524288. */
  maxResponseBytes?: number
}

/** `sso` as core uses it, every default applied. */
export type ResolvedSsoOptions = Readonly<{ resolveTxt: ResolveTxt | undefined; maxResponseBytes: number }>

declare module "../../kernel/types/config.js" {
  interface CapabilityOptions {
    /**
     * authlib extension: enterprise SSO per organization (SAML 2.0 and OpenID Connect connections,
     * verified domains). Needs `organizations`, an `SSO()` provider and an adapter with the
     * `ssoConnections` port. Off when absent.
     */
    sso?: SsoOptions
  }
}

declare module "../../kernel/types/resolved-config.js" {
  interface ResolvedCapabilityOptions {
    /** Enterprise SSO, or undefined when the `sso` option is not set. */
    readonly sso: ResolvedSsoOptions | undefined
  }
}

/** 256 KiB: far above any real IdP's signed Response, far below what makes parsing costly. */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024
/** The ceiling of `maxResponseBytes`: the ACS route reads at most `MAX_ACS_BODY_BYTES` of form body. */
export const MAX_RESPONSE_BYTES = 512 * 1024
/** The ACS route's body limit: a Response of `MAX_RESPONSE_BYTES` in base64, form-encoded, fits. */
export const MAX_ACS_BODY_BYTES = 1024 * 1024

/** The `sso` option's resolution and start-up checks. */
export const ssoOption: OptionsDeclaration = {
  key: "sso",
  resolve: (options: SsoOptions | undefined) =>
    options ? Object.freeze({ resolveTxt: options.resolveTxt, maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES }) : undefined,
  problems: (options: SsoOptions | undefined) => {
    if (!options) return []
    const max = options.maxResponseBytes
    if (max !== undefined && !(Number.isSafeInteger(max) && max >= 1024 && max <= MAX_RESPONSE_BYTES))
      return [new Configuration(`"sso.maxResponseBytes" must be a whole number from 1024 to ${MAX_RESPONSE_BYTES}`, { code: "CONFIG_INVALID", cause: { option: "sso.maxResponseBytes" } })]
    if (options.resolveTxt !== undefined && typeof options.resolveTxt !== "function")
      return [new Configuration('"sso.resolveTxt" must be a function', { code: "CONFIG_INVALID", cause: { option: "sso.resolveTxt" } })]
    return []
  },
}
