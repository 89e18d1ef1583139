/**
 * Errors of the configuration and of the app's own code (adapter, callbacks, events): logged in
 * full, shown to the user as `Configuration`.
 */
import { CataloguedError } from "./catalogued.js"

/** The server's configuration is wrong; the details are in the server log only. */
export class Configuration extends CataloguedError<"Configuration"> {
  static override type = "Configuration"
  declare type: "Configuration"
}

/** `trustHost` is not true (spec 1.6). */
export class UntrustedHost extends CataloguedError<"UntrustedHost"> {
  static override type = "UntrustedHost"
  declare type: "UntrustedHost"
}

/** An adapter method threw; `cause.err` is the adapter's error, `cause.method` the method. */
export class AdapterError extends CataloguedError<"AdapterError"> {
  static override type = "AdapterError"
  declare type: "AdapterError"
}

/** The configuration needs an adapter and has none. */
export class MissingAdapter extends CataloguedError<"MissingAdapter"> {
  static override type = "MissingAdapter"
  declare type: "MissingAdapter"
}

/** The adapter lacks methods the configuration needs (`cause.missing` lists them), as in Auth.js. */
export class MissingAdapterMethods extends CataloguedError<"MissingAdapterMethods"> {
  static override type = "MissingAdapterMethods"
  declare type: "MissingAdapterMethods"
}

/** A credentials provider without `authorize`. */
export class MissingAuthorize extends CataloguedError<"MissingAuthorize"> {
  static override type = "MissingAuthorize"
  declare type: "MissingAuthorize"
}

/** A WebAuthn provider without `experimental.enableWebAuthn`. */
export class ExperimentalFeatureNotEnabled extends CataloguedError<"ExperimentalFeatureNotEnabled"> {
  static override type = "ExperimentalFeatureNotEnabled"
  declare type: "ExperimentalFeatureNotEnabled"
}

/** Two providers share an id. */
export class DuplicateProviderId extends CataloguedError<"DuplicateProviderId"> {
  static override type = "DuplicateProviderId"
  declare type: "DuplicateProviderId"
}

/** Reading or refreshing a session failed. */
export class SessionTokenError extends CataloguedError<"SessionTokenError"> {
  static override type = "SessionTokenError"
  declare type: "SessionTokenError"
}

/** An `events` handler threw. Logged only: events never break a sign-in. */
export class EventError extends CataloguedError<"EventError"> {
  static override type = "EventError"
  declare type: "EventError"
}

/** A callback (`jwt`, `session`, `redirect`) threw. */
export class CallbackError extends CataloguedError<"CallbackError"> {
  static override type = "CallbackError"
  declare type: "CallbackError"
}
