/**
 * Events (spec 6) are audit notifications: a handler that throws is logged as `EventError` and
 * never breaks the request that triggered it.
 */
import type { Context } from "../types/http.js"
import type { EventCallbacks } from "../types/config.js"
import { runEventHandler } from "./run.js"

/** Runs the `name` event handler, if any, and swallows (after logging) what it throws. */
export async function emitEvent<K extends keyof EventCallbacks>(
  ctx: Pick<Context, "config">,
  name: K,
  message: Parameters<EventCallbacks[K]>[0],
): Promise<void> {
  const handler = ctx.config.events[name] as ((m: typeof message) => unknown) | undefined
  if (!handler) return
  await runEventHandler(ctx.config.logger, name, () => handler(message))
}
