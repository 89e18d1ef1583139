/**
 * `@authlib/providers`: built-in sign-in providers, one subpath export each
 * (`@authlib/providers/github`, `.../google`, `.../nodemailer`, `.../credentials`, `.../oidc`...).
 * The root exports only the provider types of the spec (section 2.5) and the errors the presets
 * throw, so importing it never pulls in a provider you do not use.
 * @module
 */
export type {
  AccountCallback,
  AppProvider,
  AuthorizationEndpointHandler,
  CommonProviderOptions,
  CredentialInput,
  CredentialsConfig,
  CredentialsProviderId,
  EmailConfig,
  EmailProviderId,
  EmailProviderSendVerificationRequestParams,
  EmailProviderType,
  EmailUserConfig,
  EndpointHandler,
  OAuth2Config,
  OAuthChecks,
  OAuthClientOverrides,
  OAuthConfig,
  OAuthProviderButtonStyles,
  OAuthProviderId,
  OAuthProviderType,
  OAuthUserConfig,
  OIDCChecks,
  OIDCConfig,
  OIDCUserConfig,
  Profile,
  ProfileCallback,
  Provider,
  ProviderConfig,
  ProviderType,
  TokenEndpointHandler,
  TokenSet,
  User,
  UserinfoEndpointHandler,
  WebAuthnConfig,
} from "@authlib/core"
export { EmailSignInError, InvalidEmailAddress, InvalidProviderOptions, ProviderRequestError } from "./errors.js"
