/**
 * Local, stricter views of core's provider config types, for writing presets.
 *
 * - Core's `OAuthUserConfig`/`OIDCUserConfig` accept any extra key (`[key: string]: unknown`), so a
 *   misspelt option type-checks. Preset options are declared from the known fields only; presets
 *   that take extra options (`enterprise`, `tenantId`, `apiVersion`) declare them.
 * - Core's `EmailUserConfig` is `Omit<Partial<EmailConfig>, ...>` over an interface with an index
 *   signature, which collapses every field to `unknown`; `EmailOptions` keeps them typed.
 * - Core's `UserinfoEndpointHandler.request` must return `Profile`, whose `id` is a string;
 *   GitHub's is a number. `UserinfoHandler<P>` returns the provider's own profile type.
 */
import type { EmailConfig, OAuth2Config, OIDCChecks, Profile, UserinfoEndpointHandler } from "@authlib/core"

/** `T` without its string and number index signatures: only the declared keys. */
export type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }

type OAuthFields<P> = Omit<KnownKeys<OAuth2Config<P>>, "type" | "options" | "checks" | "userinfo">

/** Symbol-keyed markers pass through presets (core's allow-insecure-requests marker is one). */
export interface SymbolMarkers {
  [marker: symbol]: unknown
}

/** The options an OAuth 2 preset takes: any field of its config except `type`. */
export type OAuthOptions<P> = Partial<OAuthFields<P>> & SymbolMarkers & { checks?: OAuth2Config<P>["checks"]; userinfo?: string | UserinfoHandler<P> }

/** The options an OIDC preset takes: any field of its config except `type`. */
export type OIDCOptions<P> = Partial<OAuthFields<P>> & SymbolMarkers & { checks?: OIDCChecks[]; idToken?: boolean; userinfo?: string | UserinfoHandler<P> }

/** The config an OAuth 2 preset builds (checked field by field). */
export type OAuthPreset<P> = OAuthFields<P> & { type: "oauth"; checks?: OAuth2Config<P>["checks"]; userinfo?: string | UserinfoHandler<P> }

/** The config an OIDC preset builds (checked field by field). */
export type OIDCPreset<P> = OAuthFields<P> & { type: "oidc"; checks?: OIDCChecks[]; idToken?: boolean; userinfo?: string | UserinfoHandler<P> }

/** The options an e-mail provider takes: any field of its config except `type`. */
export type EmailOptions = Partial<Omit<KnownKeys<EmailConfig>, "type" | "options">>

/** The context core passes to a userinfo `request`. */
export type UserinfoContext = Parameters<NonNullable<UserinfoEndpointHandler["request"]>>[0]

/**
 * A userinfo endpoint handler whose `request` returns the provider's own profile type. Core's
 * handler type returns `Profile`, whose `id` is a string; GitHub's, for one, is a number.
 */
export interface UserinfoHandler<P> {
  url?: string
  params?: Record<string, string>
  request?: (context: UserinfoContext) => Promise<P> | P
  conform?: (response: Response) => Promise<Response | undefined> | Response | undefined
}

export type { Profile }
