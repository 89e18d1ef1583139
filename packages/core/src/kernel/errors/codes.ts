/**
 * The code catalogue of the kernel: every `code` each of its error types can carry, as data.
 * Capabilities declare their own types and codes (`Capability.errors`, typed by augmenting
 * `CapabilityErrorCodes`); the package exports both merged as `ERROR_CODES`. The error classes take
 * their `code` types from them (a code missing here does not compile), the README's error table is
 * tested against them, and apps can read them at run time (for example to map codes to their own
 * texts).
 */
import type { JWTSessionErrorCode } from "@authlib/jwt"

/** The callback steps of an OAuth/OIDC sign-in, as they appear in `OAuthCallbackError` codes. */
export type CallbackStep = "AUTHORIZATION_RESPONSE" | "TOKEN_RESPONSE" | "ID_TOKEN_SIGNATURE" | "USERINFO"
/** The checks of an OAuth/OIDC sign-in, as they appear in `InvalidCheck` codes. */
export type CheckName = "pkce" | "state" | "nonce"

const STEPS: readonly CallbackStep[] = ["AUTHORIZATION_RESPONSE", "TOKEN_RESPONSE", "ID_TOKEN_SIGNATURE", "USERINFO"]
const CHECKS = ["PKCE", "STATE", "NONCE"] as const
const CHECK_FAILURES = ["COOKIE_MISSING", "COOKIE_INVALID", "PROVIDER_MISMATCH"] as const
const STEP_FAILURES = ["INVALID", "ERROR", "FAILED"] as const

/** Every `${A}_${B}`, typed as such. */
function joined<A extends string, B extends string>(as: readonly A[], bs: readonly B[]): Array<`${A}_${B}`> {
  return as.flatMap((a) => bs.map((b) => `${a}_${b}` as `${A}_${B}`))
}

/** The rules of `normalizeEmailAddress`, and `EMAIL_REFUSED` for a custom normaliser that failed. */
const EMAIL_ADDRESS_CODES = [
  "EMAIL_NOT_A_STRING",
  "EMAIL_EMPTY",
  "EMAIL_TOO_LONG",
  "EMAIL_CONTROL_CHARACTER",
  "EMAIL_SEVERAL_ADDRESSES",
  "EMAIL_FORBIDDEN_CHARACTER",
  "EMAIL_LOOKALIKE_AT",
  "EMAIL_AT_COUNT",
  "EMAIL_LOCAL_PART_INVALID",
  "EMAIL_ENCODED_WORD",
  "EMAIL_PERCENT_IN_LOCAL_PART",
  "EMAIL_LOCAL_PART_TOO_LONG",
  "EMAIL_DOMAIN_INVALID",
  "EMAIL_REFUSED",
] as const

const JWT_SESSION_CODES = [
  "TOKEN_MALFORMED",
  "HEADER_INVALID",
  "ALG_UNSUPPORTED",
  "ENC_UNSUPPORTED",
  "HEADER_PARAMETER_UNSUPPORTED",
  "KID_UNKNOWN",
  "DECRYPTION_FAILED",
  "PAYLOAD_INVALID",
  "CLAIM_INVALID",
  "TOKEN_EXPIRED",
  "TOKEN_NOT_YET_VALID",
] as const satisfies readonly JWTSessionErrorCode[]

/**
 * Every code per error type of the kernel. Three types also carry codes the app chooses (see
 * {@link APP_DEFINED_CODES}).
 */
export const KERNEL_ERROR_CODES = {
  AccessDenied: ["SIGNIN_CALLBACK_FALSE", "SIGNIN_CALLBACK_THREW", "JWT_CALLBACK_NULL", "SIGN_IN_CHANGED"],
  AdapterError: ["ADAPTER_METHOD_FAILED"],
  CallbackError: ["CALLBACK_THREW"],
  CallbackRouteError: ["AUTHORIZE_THREW"],
  Configuration: [
    "CONFIG_INVALID",
    "APP_URL_INVALID",
    "RATE_LIMIT_INVALID",
    "SESSION_OPTION_INVALID",
    "COOKIE_NAME_INVALID",
    "CLIENT_ID_MISSING",
    "EMAIL_SENDER_MISSING",
    "EMAIL_MAX_AGE_INVALID",
    "REDIRECT_PROXY_NEEDS_APP_URL",
    "REDIRECT_PROXY_URL_INVALID",
    "REDIRECT_PROXY_ORIGIN_INVALID",
    "SEND_VERIFICATION_REQUEST_MISSING",
    "TOKEN_GENERATOR_INVALID",
    "RP_ID_INVALID",
    "RP_ID_PUBLIC_SUFFIX",
    "WEBAUTHN_MODULE_MISSING",
    "UNEXPECTED",
    // Raised by framework bindings (@authlib/qwik) when an in-process call to core fails.
    "INTERNAL_CALL_FAILED",
    "SESSION_ROUTE_FAILED",
  ],
  CredentialsSignin: ["credentials"],
  DuplicateProviderId: ["PROVIDER_ID_DUPLICATE"],
  EmailSignInError: ["SEND_FAILED", "TOKEN_GENERATION_FAILED", ...EMAIL_ADDRESS_CODES],
  EventError: ["EVENT_HANDLER_THREW"],
  ExperimentalFeatureNotEnabled: ["WEBAUTHN_NOT_ENABLED"],
  InvalidCallbackUrl: ["CALLBACK_URL_INVALID", "CALLBACK_URL_CONTROL_CHARS"],
  InvalidCheck: [
    ...joined(joined(["CHECK"] as const, CHECKS), CHECK_FAILURES),
    "CHECK_STATE_MISMATCH",
    "CHECK_STATE_MISSING",
    "CHECK_STATE_TAMPERED",
    "CHECK_NONCE_MISMATCH",
  ],
  InvalidEmailAddress: EMAIL_ADDRESS_CODES,
  InvalidProvider: ["FLOW_UNAVAILABLE", "UNKNOWN_PROVIDER"],
  InvalidRequest: [
    "REQUEST_INVALID",
    "REQUEST_UNREADABLE",
    "HEADERS_TOO_LARGE",
    "BODY_TOO_LARGE",
    "BODY_ENCODING_INVALID",
    "CONTENT_TYPE_UNSUPPORTED",
    "FORM_BODY_INVALID",
    "JSON_BODY_INVALID",
    "JSON_BODY_NOT_OBJECT",
    "JSON_BODY_TOO_DEEP",
    "PATH_ENCODING_INVALID",
    "QUERY_ENCODING_INVALID",
  ],
  JWTSessionError: JWT_SESSION_CODES,
  MethodNotAllowed: ["METHOD_NOT_ALLOWED"],
  MissingAdapter: ["ADAPTER_MISSING"],
  MissingAdapterMethods: ["ADAPTER_METHODS_MISSING"],
  InvalidEndpoints: ["AUTHORIZATION_ENDPOINT_MISSING"],
  OAuthProfileParseError: ["PROFILE_ID_MISSING"],
  MissingAuthorize: ["AUTHORIZE_MISSING"],
  MissingCSRF: ["CSRF_TOKEN_MISSING", "CSRF_TOKEN_MISMATCH", "CSRF_COOKIE_INVALID", "CSRF_CROSS_SITE", "CSRF_ORIGIN_MISMATCH", "CSRF_ORIGIN_OPAQUE"],
  MissingSalt: ["SALT_MISSING"],
  MissingSecret: ["SECRET_MISSING"],
  OAuthAccountNotLinked: ["ACCOUNT_OWNED_BY_OTHER_USER", "EMAIL_ALREADY_LINKED", "ACCOUNT_UNLINKED"],
  OAuthCallbackCancelled: ["AUTHORIZATION_DENIED"],
  OAuthCallbackError: [
    ...joined(STEPS, STEP_FAILURES),
    "ISSUER_MISSING",
    "ISSUER_MISMATCH",
    "ID_TOKEN_ALG_REFUSED",
    "ID_TOKEN_ISS_MISMATCH",
    "ID_TOKEN_AUD_MISMATCH",
    "ID_TOKEN_EXPIRED",
    "USERINFO_SUBJECT_MISMATCH",
    "CLIENT_AUTH_UNSUPPORTED",
    "CLIENT_SECRET_MISSING",
    "PROVIDER_CALLBACK_THREW",
    "REDIRECT_PROXY_TARGET_NOT_ALLOWED",
  ],
  OAuthSignInError: ["CLIENT_ID_MISSING", "DISCOVERY_FAILED", "DISCOVERY_INSECURE", "DISCOVERY_ISSUER_UNKNOWN"],
  RateLimited: ["LIMIT_REACHED", "STORE_UNAVAILABLE"],
  RefreshTokenError: ["ACCOUNT_NOT_LINKED", "REFRESH_TOKEN_MISSING", "INVALID_GRANT", "REFRESH_FAILED"],
  ReauthenticationRequired: ["AUTHENTICATION_TOO_OLD", "SECOND_FACTOR_REQUIRED"],
  SessionRequired: ["SESSION_MISSING"],
  SessionTokenError: ["SESSION_TOKEN_WEAK", "SESSION_TOKEN_TOO_LARGE"],
  SignInError: [],
  UnknownAction: ["ACTION_UNKNOWN", "ACTION_UNAVAILABLE", "PROVIDER_ID_MISSING", "PROVIDER_UNKNOWN"],
  UntrustedHost: ["TRUST_HOST_FALSE"],
  Verification: ["TOKEN_MISSING", "TOKEN_INVALID", "TOKEN_EXPIRED", "EMAIL_INVALID", "IDENTIFIER_MISMATCH"],
} as const satisfies Readonly<Record<string, readonly string[]>>

/** The error types that also carry codes chosen by the app or a provider package. */
export const APP_DEFINED_CODES = {
  /** A subclass thrown from `authorize` sets its own `code`. */
  CredentialsSignin: "the code of a `CredentialsSignin` subclass thrown from `authorize`",
  /** A sender's `AuthError` keeps its code (`@authlib/providers`: `SMTP_REJECTED`, `SMTP_SEND_FAILED`, `NODEMAILER_MISSING`). */
  EmailSignInError: "the code of an `AuthError` thrown by `sendVerificationRequest`",
  /** A custom `normalizeIdentifier` may throw an `InvalidEmailAddress` with its own code. */
  InvalidEmailAddress: "the code of an `InvalidEmailAddress` thrown by a custom `normalizeIdentifier`",
} as const

/**
 * The codes capabilities add, by declaration merging: error type -> its code list (`typeof` a
 * `const` tuple). A capability's own type, or a kernel type it adds codes to.
 */
export interface CapabilityErrorCodes {}

type KernelCodes = typeof KERNEL_ERROR_CODES

/** An error type of the catalogue. */
export type CataloguedType = keyof KernelCodes | keyof CapabilityErrorCodes

/** The codes the catalogue lists for `T` (the kernel's and the capabilities'). */
export type ListedCode<T extends CataloguedType> =
  | (T extends keyof KernelCodes ? KernelCodes[T][number] : never)
  | (T extends keyof CapabilityErrorCodes ? (CapabilityErrorCodes[T] extends readonly (infer C extends string)[] ? C : never) : never)

/**
 * The codes an error of type `T` can carry: the catalogue's list, plus any string for the types
 * in {@link APP_DEFINED_CODES}.
 */
export type ErrorCode<T extends CataloguedType> = ListedCode<T> | (T extends keyof typeof APP_DEFINED_CODES ? string & {} : never)

/** Every code per error type, capabilities' included: the package's `ERROR_CODES`. */
export type ErrorCodes = { readonly [T in CataloguedType]: readonly ListedCode<T>[] }
