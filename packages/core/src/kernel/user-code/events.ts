/**
 * Events (spec 6) are audit notifications: a handler that throws is logged as `EventError` and
 * never breaks the request that triggered it.
 */
import type { Context } from "../types/http.js"
import type { EventCallbacks } from "../types/config.js"
import { runEventHandler } from "./run.js"

/**
 * Runs the `name` event handler, if any, and swallows (after logging) what it throws. Without a
 * handler it answers at once, with no promise made (a session read emits `session` every time).
 */
export function emitEvent<K extends keyof EventCallbacks>(
  ctx: Pick<Context, "config">,
  name: K,
  message: Parameters<EventCallbacks[K]>[0],
): Promise<void> | undefined {
  const handler = ctx.config.events[name] as ((m: typeof message) => unknown) | undefined
  if (!handler) return undefined
  return runEventHandler(ctx.config.logger, name, () => handler(message))
}
