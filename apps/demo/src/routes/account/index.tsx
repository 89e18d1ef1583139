import { $, component$, useSignal } from "@builder.io/qwik"
import { Form, routeAction$, routeLoader$, z, zod$, type DocumentHead, type RequestHandler } from "@builder.io/qwik-city"
import {
  AuthError,
  deletePasskey,
  getAccessToken,
  listPasskeys,
  listSessions,
  protectRoute,
  RefreshTokenError,
  renamePasskey,
  revokeOtherSessions,
  revokeSession,
  SessionManagementError,
  signOutEverywhere,
} from "@authlib/qwik"
import { registerPasskey } from "@authlib/qwik/passkey"
import { useSession } from "../plugin@auth"
import { LinkedAccounts } from "../../components/ways-in"
import { TwoStep } from "../../components/two-step"
import { askedStepUp, needsStepUp, StepUp } from "../../components/step-up"
import { confirmFirst } from "../../components/confirm"
import { idpIssuer } from "../../server/idp-issuer"
import { ENDED_SIGN_IN_PAGE, sessionEnded } from "../../server/session-ended"

export { useLinkedAccounts, useUnlink } from "../../components/ways-in"
export { useConfirmTwoFactor, useDisableTwoFactor, useNewBackupCodes, useStartTwoFactor, useTwoFactorStatus } from "../../components/two-step"
export { useStepUp } from "../../components/step-up"

/** A date as the page shows it ("never" for none). */
const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC" : "never")

/**
 * Signed-out visitors go to the sign-in page and come back here afterwards; a browser whose session
 * ended elsewhere is told so there.
 */
const protect = protectRoute({ signInPage: "/sign-in/" })
const protectEnded = protectRoute({ signInPage: ENDED_SIGN_IN_PAGE })
export const onRequest: RequestHandler = (ev) => (sessionEnded(ev) ? protectEnded(ev) : protect(ev))

/** The signed-in user's passkeys (names, dates, synced or not; never a key). */
export const usePasskeys = routeLoader$(async (ev) => {
  const passkeys = await listPasskeys(ev)
  return passkeys.map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt?.toISOString() ?? null, lastUsedAt: p.lastUsedAt?.toISOString() ?? null, backedUp: p.backedUp }))
})

/**
 * The Demo IdP's userinfo API, called with the user's access token from `getAccessToken`, which
 * refreshes it first when it expires within a minute (the IdP's tokens live 5 minutes, so a reload
 * reuses one and "Refresh the token now" visibly replaces it). The token
 * itself never reaches the browser: only what the API answered and when the token expires.
 */
export const useIdpApi = routeLoader$(async (ev) => {
  const issuer = await idpIssuer(ev.env)
  if (!issuer) return { state: "unavailable" as const }
  try {
    const token = await getAccessToken(ev, "demo-idp")
    const res = await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${token.accessToken}` } })
    if (!res.ok) return { state: "failed" as const, reason: `the IdP answered ${res.status}` }
    const me = (await res.json()) as { name?: string; email?: string }
    return { state: "ok" as const, name: me.name ?? "", email: me.email ?? "", expiresAt: token.expiresAt ? new Date(token.expiresAt * 1000).toISOString() : null }
  } catch (err) {
    if (err instanceof RefreshTokenError && err.code === "ACCOUNT_NOT_LINKED") return { state: "not-linked" as const }
    if (err instanceof RefreshTokenError) return { state: "failed" as const, reason: err.code === "INVALID_GRANT" ? "the IdP refused the refresh token: sign in with the Demo IdP again" : "the token could not be refreshed" }
    throw err
  }
})

/** Refreshes the Demo IdP token now (as if it expired), to watch a refresh happen. */
export const useRefreshIdpToken = routeAction$(async (_form, ev) => {
  try {
    await getAccessToken(ev, "demo-idp", { minValidity: 24 * 3600 })
  } catch (err) {
    if (err instanceof RefreshTokenError) return ev.fail(409, { message: "The token could not be refreshed." })
    throw err
  }
})

const IdpApi = component$(() => {
  const api = useIdpApi()
  const refresh = useRefreshIdpToken()
  const value = api.value
  if (value.state === "unavailable") return null
  return (
    <section class="card" aria-labelledby="idp-api-title">
      <h2 id="idp-api-title">Calling the Demo IdP's API</h2>
      {value.state === "not-linked" && <p class="hint">Sign in with the Demo IdP to call its API with your access token.</p>}
      {value.state === "failed" && (
        <p class="alert" role="alert">
          The API call failed: {value.reason}.
        </p>
      )}
      {value.state === "ok" && (
        <>
          <p class="idp-answer">
            The IdP says you are {value.name} ({value.email}).
          </p>
          <p class="hint">
            Access token valid until{" "}
            <time class="idp-expiry" dateTime={value.expiresAt ?? undefined}>
              {value.expiresAt ? `${value.expiresAt.slice(11, 19)} UTC` : "(no expiry given)"}
            </time>
            . The IdP's tokens live 5 minutes;
            authlib's <code>getAccessToken</code> refreshes them on this server when they are due, with a refresh token
            that works once.
          </p>
          <Form action={refresh} class="idp-refresh">
            <button type="submit" class="button small">
              Refresh the token now
            </button>
          </Form>
        </>
      )}
    </section>
  )
})

/**
 * The user's sessions. Database sessions are listed with what each recorded (client, network,
 * when); JWT sessions are not stored, so there is no list, but they can still all be ended (the
 * demo's adapter keeps session epochs).
 */
export const useSessions = routeLoader$(async (ev) => {
  try {
    const sessions = await listSessions(ev)
    return {
      stored: true as const,
      sessions: sessions.map((s) => ({
        id: s.id,
        current: s.current,
        client: s.client,
        network: s.network,
        createdAt: s.createdAt?.toISOString() ?? null,
        lastSeenAt: s.lastSeenAt.toISOString(),
      })),
    }
  } catch (err) {
    if (err instanceof SessionManagementError && err.code === "DATABASE_SESSIONS_ONLY") return { stored: false as const, sessions: [] }
    throw err
  }
})

export const useEndSession = routeAction$(
  async (form, ev) => {
    try {
      await revokeSession(ev, { id: form.id })
    } catch (err) {
      if (err instanceof SessionManagementError) return ev.fail(404, { message: "That session has already ended." })
      throw err
    }
  },
  zod$({ id: z.string() }),
)

/** Stored sessions are counted; JWT sessions end at their next request (the demo checks every request). */
export const useEndOtherSessions = routeAction$(async (_form, ev) => {
  const ended = await revokeOtherSessions(ev)
  return { message: ended === null ? "Your other sessions are signed out." : `Signed out of ${ended} other session(s).` }
})

/** Every session ends, this one too: back to the sign-in page. */
export const useSignOutEverywhere = routeAction$(async (_form, ev) => {
  await signOutEverywhere(ev)
  throw ev.redirect(303, "/sign-in/?signedOut=everywhere")
})

const Sessions = component$(() => {
  const list = useSessions()
  const end = useEndSession()
  const endOthers = useEndOtherSessions()
  const everywhere = useSignOutEverywhere()
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      {!list.value.stored ? (
        <p class="hint">
          This demo runs with JWT sessions (an encrypted cookie): nothing is stored, so there is no list. Signing out the others still works: your
          session epoch moves on, and every older cookie is refused on its next request. Start it with <code>AUTH_SESSION_STRATEGY=database</code> to
          see each session here.
        </p>
      ) : (
        <ul class="session-list">
          {list.value.sessions.map((s) => (
            <li key={s.id} class="session">
              <span>
                <strong>{s.current ? "This browser" : (s.client ?? "Another browser or device")}</strong>
                {s.current && s.client ? ` (${s.client})` : ""}
                <span class="hint session-facts">
                  {" "}
                  · {s.network ?? "network unknown"} · signed in {date(s.createdAt)} · last seen {date(s.lastSeenAt)}
                </span>
              </span>
              {!s.current && (
                <Form action={end}>
                  <input type="hidden" name="id" value={s.id} />
                  <button type="submit" class="button small">
                    Sign it out
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      <div class="row">
        {(!list.value.stored || list.value.sessions.length > 1) && (
          <Form action={endOthers}>
            <button type="submit" class="button small">
              Sign out everywhere else
            </button>
          </Form>
        )}
        <Form action={everywhere}>
          <button type="submit" class="button small">
            Sign out everywhere
          </button>
        </Form>
      </div>
      {endOthers.value?.message && <p class="hint">{endOthers.value.message}</p>}
    </section>
  )
})

/** Core's refusal (an unknown passkey, the last way to sign in, a bad name) as a message on this page. */
function refusal(err: unknown): string {
  if (!(err instanceof AuthError)) throw err
  if (err.code === "LAST_SIGN_IN_METHOD") return "This is your only way to sign in: add another passkey or sign-in method first."
  if (err.code === "PASSKEY_NAME_INVALID") return "Give the passkey a name."
  return "That passkey could not be changed."
}

export const useRenamePasskey = routeAction$(
  async (form, ev) => {
    try {
      await renamePasskey(ev, { id: form.id, name: form.name })
      return { message: "Passkey renamed." }
    } catch (err) {
      if (needsStepUp(err)) return ev.fail(403, { message: "", stepUp: true })
      return ev.fail(400, { message: refusal(err) })
    }
  },
  zod$({ id: z.string(), name: z.string() }),
)

export const useDeletePasskey = routeAction$(
  async (form, ev) => {
    try {
      await deletePasskey(ev, { id: form.id })
      return { message: "Passkey deleted: it no longer signs in here." }
    } catch (err) {
      if (needsStepUp(err)) return ev.fail(403, { message: "", stepUp: true })
      return ev.fail(409, { message: refusal(err) })
    }
  },
  zod$({ id: z.string() }),
)


const Passkeys = component$(() => {
  const passkeys = usePasskeys()
  const rename = useRenamePasskey()
  const remove = useDeletePasskey()
  // What the last change said (done or refused), and the change a step-up is asked for, retried
  // once the second factor is verified.
  const notice = useSignal("")
  const problem = useSignal("")
  const pending = useSignal<"" | "add" | "rename" | "delete">("")
  const settle = $((what: "rename" | "delete", answer: { failed?: boolean; message?: string } | undefined) => {
    notice.value = answer && !answer.failed ? (answer.message ?? "") : ""
    problem.value = answer?.failed ? (answer.message ?? "") : ""
    if (askedStepUp(answer)) pending.value = what
  })
  const add = $(async () => {
    notice.value = ""
    problem.value = ""
    const result = await registerPasskey({ callbackUrl: "/account/?added=1" })
    if (!("failed" in result)) return
    if (result.error === "ReauthenticationRequired") pending.value = "add"
    else problem.value = result.formErrors[0] ?? "The passkey could not be added."
  })
  const retry = $(async () => {
    const what = pending.value
    pending.value = ""
    if (what === "add") await add()
    else if (what === "rename" && rename.formData) await settle("rename", (await rename.submit(rename.formData)).value)
    else if (what === "delete" && remove.formData) await settle("delete", (await remove.submit(remove.formData)).value)
  })
  return (
    <section aria-labelledby="passkeys-title" class="passkeys">
      <h2 id="passkeys-title">Passkeys</h2>
      <p class="muted">Sign in with your device's screen lock or a security key instead of a password.</p>
      {problem.value && (
        <p class="alert" role="alert">
          {problem.value}
        </p>
      )}
      {notice.value && (
        <p class="notice" role="status">
          {notice.value}
        </p>
      )}
      {pending.value && <StepUp onVerified$={retry} />}
      {passkeys.value.length === 0 ? (
        <p class="hint">No passkeys yet.</p>
      ) : (
        <ul class="passkey-list">
          {passkeys.value.map((p) => (
            <li key={p.id} class="passkey">
              <Form action={rename} class="passkey-name" onSubmitCompleted$={(e) => settle("rename", e.detail.value)}>
                <input type="hidden" name="id" value={p.id} />
                <label for={`name-${p.id}`} class="visually-hidden">
                  Name
                </label>
                <input id={`name-${p.id}`} name="name" value={p.name ?? ""} placeholder="Unnamed passkey" maxLength={64} />
                <button type="submit" class="button small">
                  Rename
                </button>
              </Form>
              <p class="hint passkey-facts">
                Added {date(p.createdAt)} · last used {date(p.lastUsedAt)}
                {p.backedUp ? " · synced" : ""}
              </p>
              <Form action={remove} onSubmitCompleted$={(e) => settle("delete", e.detail.value)}>
                <input type="hidden" name="id" value={p.id} />
                <button type="submit" class="button small" data-confirm={`Delete the passkey "${p.name ?? "Unnamed passkey"}"? It will no longer sign you in.`} onClick$={confirmFirst}>
                  Delete
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="button primary" onClick$={add}>
        Add a passkey
      </button>
    </section>
  )
})

export default component$(() => {
  const session = useSession()
  const user = session.value?.user
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Your account</h1>
      <p class="lead">This page is protected: only signed-in users see it.</p>
      <dl class="facts">
        <dt>Name</dt>
        <dd>{user?.name ?? "(none)"}</dd>
        <dt>Email</dt>
        <dd>{user?.email ?? "(none)"}</dd>
        <dt>Session expires</dt>
        <dd>
          <time dateTime={session.value?.expires}>{date(session.value?.expires ?? null)}</time>
        </dd>
      </dl>
      <IdpApi />
      <Sessions />
      <LinkedAccounts />
      <TwoStep />
      <Passkeys />
    </section>
  )
})

export const head: DocumentHead = { title: "Account" }
