/**
 * Tabs of one browser follow each other's session changes: a sign-in, sign-out or update in one
 * posts a note on a `BroadcastChannel`; the others read their session again from the server (the
 * note carries no session, so a tab never takes one from a message).
 */
const CHANNEL = "authlib.session"

/** What changed the session in the tab that posted. */
export type SessionTrigger = "signin" | "signout" | "update" | "server"

let channel: BroadcastChannel | null | undefined

function open(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null
  return channel
}

/** Tells the other tabs the session changed. */
export function announce(trigger: SessionTrigger): void {
  open()?.postMessage({ event: "session", data: { trigger } })
}

/** Calls `onChange` when another tab announces a change; answers the unsubscribe. */
export function listen(onChange: (trigger: SessionTrigger) => void): () => void {
  // A channel of its own: a BroadcastChannel never receives its own messages, so this one hears
  // the tab's other channel too, which is how one provider's change reaches another in the tab.
  if (typeof BroadcastChannel !== "function") return () => {}
  const own = new BroadcastChannel(CHANNEL)
  own.onmessage = (event: MessageEvent) => {
    const data = event.data as { event?: unknown; data?: { trigger?: unknown } } | null
    if (data?.event === "session") onChange((data.data?.trigger as SessionTrigger) ?? "update")
  }
  return () => own.close()
}
