/**
 * Sign in with anything you can check yourself (user name and password, a one-time code...).
 * The runtime (POST /callback/credentials, CSRF, `CredentialsSignin` handling) lives in core.
 *
 * ```ts
 * import Credentials from "@authlib/providers/credentials"
 * providers: [Credentials({
 *   credentials: { email: { label: "E-mail", type: "email" }, password: { type: "password" } },
 *   async authorize(credentials) { return await checkPassword(credentials) ?? null },
 * })]
 * ```
 * @module
 */
import type { CredentialInput, CredentialsConfig } from "@authlib/core"
import { InvalidProviderOptions } from "./errors.js"
import { withOptions } from "./shared/merge.js"

/** What `Credentials()` takes: `authorize` is required; `id` and `name` default to "credentials". */
export type CredentialsUserConfig<C extends Record<string, CredentialInput>> = Partial<Omit<CredentialsConfig<C>, "type" | "options">> &
  Pick<CredentialsConfig<C>, "authorize">

/** The Credentials provider factory: `id` "credentials", `name` "Credentials" unless given. */
export default function Credentials<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  options: CredentialsUserConfig<C>,
): CredentialsConfig<C> {
  if (typeof options?.authorize !== "function") {
    throw new InvalidProviderOptions(`Credentials: "authorize" must be a function`, { code: "MISSING_AUTHORIZE", cause: { provider: options?.id ?? "credentials" } })
  }
  const preset: CredentialsConfig<C> = {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: {} as C,
    authorize: options.authorize,
  }
  return withOptions(preset, options) as CredentialsConfig<C>
}
export { Credentials }
