/**
 * The one shape of an OpenID Connect preset: the defaults every OIDC preset starts from (code flow
 * with PKCE, state and nonce; scope `openid profile email`), the fields that make it one provider,
 * and the user's options merged over both (`withOptions`). Most presets map their claims with
 * `claimsUser`, which keeps the e-mail rule of `verified-email.ts` in one place.
 */
import type { OIDCConfig } from "@authlib/core"
import type { OIDCOptions, OIDCPreset } from "./types.js"
import { withOptions } from "./merge.js"
import { emailVerifiedAt, verifiedEmail, type EmailClaims } from "./verified-email.js"

/** The standard claims `claimsUser` reads besides the name. */
export interface UserClaims extends EmailClaims {
  sub: string
  picture?: string
}

/**
 * Standard claims as an authlib user: `sub` is the id, `picture` the image, `name` the one the
 * preset picks. An address the provider marks unverified is not passed on; the address is verified
 * (`emailVerified`) only when the provider says `email_verified: true`. Generic, so each preset's
 * profile function keeps the exact types it had when it wrote the object out itself.
 */
export function claimsUser<C extends UserClaims, N extends string | null>(profile: C, name: N) {
  return {
    id: profile.sub,
    name,
    email: verifiedEmail(profile),
    image: profile.picture ?? null,
    emailVerified: emailVerifiedAt(profile),
  }
}

/** What a preset states: its id, name and profile mapping, and any field whose default it changes. */
export type OIDCPresetFields<P> = Pick<OIDCPreset<P>, "id" | "name" | "profile"> & Partial<Omit<OIDCPreset<P>, "type">>

/** An OIDC preset: the shared defaults, then the preset's `fields`, then the user's `options` over both. */
export function oidcPreset<P>(fields: OIDCPresetFields<P>, options: OIDCOptions<P> | undefined): OIDCConfig<P> {
  const preset: OIDCPreset<P> = {
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    checks: ["pkce", "state", "nonce"],
    ...fields,
  }
  return withOptions(preset, options)
}
