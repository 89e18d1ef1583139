/**
 * The logger of spec 2.1: `error`, `warn` and `debug`, each `(code, ...message)`. Levels the user
 * leaves out fall back to the built-in console logger. The built-in `debug` prints only with
 * `debug: true` and no custom `logger`; a custom `logger.debug` is always called.
 *
 * What a request ends with is logged by one rule (`publicType` in `http/error-response.ts`, for
 * routes and server functions alike): an expected refusal (a client-safe error: a wrong password, a
 * wrong code, a refused passkey) once at `warn`, which the built-in console prints as one line,
 * `Type: message (CODE)`, without a stack; a fault at `error`, in full with its stack and causes.
 */
import type { LoggerInstance } from "@authlib/jwt"
import { AuthError } from "./errors.js"
import { isClientSafe } from "./catalogued.js"

const prefix = "[authlib]"

function consoleLevel(level: "error" | "warn" | "debug"): LoggerInstance["error"] {
  return (code, ...message) => {
    const line = `${prefix}[${level}][${code}]`
    if (level === "error") console.error(line, ...message.map(describe))
    else if (level === "warn") console.warn(line, ...message.map(brief))
    else console.debug(line, ...message)
  }
}

/** Expands an error and its cause chain so the full story reaches the server log. */
function describe(part: unknown): unknown {
  if (!(part instanceof Error)) return part
  const cause = part.cause as { err?: unknown } | undefined
  const inner = cause && typeof cause === "object" && "err" in cause ? cause.err : undefined
  if (inner instanceof Error) return `${part.stack ?? part.message}\nCaused by: ${String(describe(inner))}`
  return part.stack ?? part.message
}

/** A refusal in one line: its type, message and code; its stack says nothing an operator needs. */
function brief(part: unknown): unknown {
  if (!isClientSafe(part) || (part.cause as { err?: unknown } | undefined)?.err !== undefined) return part
  return `${part.type}: ${part.message}${part.code ? ` (${part.code})` : ""}`
}

const silent = (): void => {}

/** Builds the effective logger once per configuration. */
export function createLogger(custom: Partial<LoggerInstance> | undefined, debug: boolean | undefined): LoggerInstance {
  const useBuiltinDebug = !custom && debug === true
  return {
    error: custom?.error ?? consoleLevel("error"),
    warn: custom?.warn ?? consoleLevel("warn"),
    debug: custom?.debug ?? (useBuiltinDebug ? consoleLevel("debug") : silent),
  }
}

/** Logs an error under its type, with the error itself so custom loggers get every detail. */
export function logError(logger: LoggerInstance, err: unknown): void {
  const code = err instanceof AuthError ? err.type : "UnknownError"
  try {
    logger.error(code, err)
  } catch {
    // A broken custom logger must not turn a handled error into a crash.
  }
}

const printed = new Set<string>()

/** Prints `message` at most once per process (bindings may build a fresh config per request). */
export function warnOnce(logger: LoggerInstance, code: string, message: string): void {
  const key = `${code}:${message}`
  if (printed.has(key)) return
  printed.add(key)
  logger.warn(code, message)
}
