/**
 * `@authlib/core/types`: the configuration and session model's types, as `@auth/core/types`
 * offers them (an Auth.js app's imports move by changing the scope).
 * @module
 */
export type {
  Account, AuthConfig, Awaitable, CallbacksOptions, CookieOption, CookiesOptions, DefaultSession,
  EventCallbacks, JWT, LoggerInstance, PagesOptions, Profile, Session, SessionOptions, Theme, TokenSet, User
} from "./index.js"
