/**
 * `SessionProvider` and `useSession`, with `next-auth/react`'s props and results, and the two fixes
 * Auth.js users ask for:
 *
 * - A session changed on the server shows without a reload. Give the provider the server's session
 *   (`<SessionProvider session={await auth()}>` in a server layout): a server action that signs in,
 *   signs out, updates the session or calls a server function sets a cookie, Next renders the
 *   layout again, and the provider takes the new `session` prop (Auth.js's provider reads its prop
 *   only once).
 * - Other tabs follow: every change (a sign-in, sign-out or `update()` here, a new session from
 *   the server) is announced on a `BroadcastChannel`, and the other tabs read their session again.
 *
 * Without a `session` prop the provider reads `{basePath}/session` when it mounts.
 */
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from "react"
import type { Session } from "@authlib/core"
import { announce, listen } from "./broadcast.js"
import { currentBasePath, getSession, setBasePath, updateSession } from "./client.js"

/** What `useSession` answers. */
export type SessionContextValue<R extends boolean = false> = R extends true
  ? { data: Session; status: "authenticated"; update: UpdateSession } | { data: null; status: "loading"; update: UpdateSession }
  : { data: Session; status: "authenticated"; update: UpdateSession } | { data: null; status: "unauthenticated" | "loading"; update: UpdateSession }

/** `update()`: reads the session again; `update(data)`: updates it on the server (`trigger: "update"`). */
export type UpdateSession = (data?: unknown) => Promise<Session | null>

export interface SessionProviderProps {
  children: ReactNode
  /** The session as the server read it (`await auth()`): no request on mount, and kept in step with the server's renders. */
  session?: Session | null
  /** Where authlib is mounted. Default `/api/auth`. */
  basePath?: string
  /** Reads the session again every this many seconds (0: never). Default 0. */
  refetchInterval?: number
  /** Reads the session again when the tab becomes visible. Default `true`. */
  refetchOnWindowFocus?: boolean
  /** With `refetchInterval`, also reads while the browser is offline. Default `false`. */
  refetchWhenOffline?: false
}

interface State {
  session: Session | null
  loading: boolean
}

const SessionContext = createContext<(State & { update: UpdateSession }) | undefined>(undefined)

/** Without `expires`, which a JWT session's every read moves forward: the same session read twice. */
function withoutExpiry(session: Session | null): unknown {
  if (!session) return session
  const { expires: _expires, ...rest } = session
  return rest
}

const same = (a: Session | null, b: Session | null): boolean => JSON.stringify(withoutExpiry(a)) === JSON.stringify(withoutExpiry(b))

function useServerSession(session: Session | null | undefined, setState: (s: State) => void, current: RefObject<State>): void {
  // A new `session` prop that differs from what the tab shows: the server's read wins, and the other tabs are told.
  useEffect(() => {
    if (session === undefined || same(session, current.current.session)) return
    setState({ session, loading: false })
    announce("server")
  }, [session, setState, current])
}

function useRefetch(refetch: () => void, props: SessionProviderProps): void {
  const { refetchInterval = 0, refetchOnWindowFocus = true, refetchWhenOffline = false } = props
  useEffect(() => listen(() => refetch()), [refetch])
  useEffect(() => {
    if (!refetchOnWindowFocus) return
    const onVisible = () => document.visibilityState === "visible" && refetch()
    document.addEventListener("visibilitychange", onVisible)
    return () => document.removeEventListener("visibilitychange", onVisible)
  }, [refetch, refetchOnWindowFocus])
  useEffect(() => {
    if (!refetchInterval) return
    const timer = setInterval(() => (refetchWhenOffline || navigator.onLine !== false) && refetch(), refetchInterval * 1000)
    return () => clearInterval(timer)
  }, [refetch, refetchInterval, refetchWhenOffline])
}

/** Provides the session to `useSession` below it. */
export function SessionProvider(props: SessionProviderProps) {
  setBasePath(props.basePath)
  const [state, setState] = useState<State>(() => ({ session: props.session ?? null, loading: props.session === undefined }))
  const current = useRef(state)
  current.current = state
  const refetch = useCallback(() => {
    void getSession().then((session) => setState((s) => (same(s.session, session) && !s.loading ? s : { session, loading: false })))
  }, [])
  useEffect(() => {
    if (props.session === undefined) refetch()
    // Only on mount: later reads come from the triggers below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  useServerSession(props.session, setState, current)
  useRefetch(refetch, props)
  const update = useCallback<UpdateSession>(async (data) => {
    const session = data === undefined ? await getSession() : await updateSession(data)
    setState({ session, loading: false })
    return session
  }, [])
  const value = useMemo(() => ({ ...state, update }), [state, update])
  return createElement(SessionContext.Provider, { value }, props.children)
}

/** `useSession`'s options: with `required`, a signed-out user goes to sign in (or `onUnauthenticated` runs). */
export interface UseSessionOptions<R extends boolean> {
  required: R
  onUnauthenticated?: () => void
}

/** The session of the nearest `SessionProvider`: `{ data, status, update }`. */
export function useSession<R extends boolean = false>(options?: UseSessionOptions<R>): SessionContextValue<R> {
  const value = useContext(SessionContext)
  if (!value) throw new Error("useSession must be wrapped in a <SessionProvider />")
  const required = options?.required === true
  const onUnauthenticated = options?.onUnauthenticated
  const signedOut = !value.loading && !value.session
  useEffect(() => {
    if (!required || !signedOut) return
    if (onUnauthenticated) return onUnauthenticated()
    const query = new URLSearchParams({ error: "SessionRequired", callbackUrl: window.location.href })
    window.location.href = `${currentBasePath()}/signin?${query}`
  }, [required, signedOut, onUnauthenticated])
  if (value.session) return { data: value.session, status: "authenticated", update: value.update } as SessionContextValue<R>
  return { data: null, status: value.loading || (required && signedOut) ? "loading" : "unauthenticated", update: value.update } as SessionContextValue<R>
}
