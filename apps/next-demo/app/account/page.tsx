import { SessionManagementError } from "@authlib/nextjs"
import { auth, getTwoFactorStatus, listPasskeys, listSessions } from "../../auth"
import { endEverySession, endOtherSessions, endSession, removePasskey } from "../actions"
import { AddPasskey } from "../components/add-passkey"
import { TwoStep } from "../components/two-step"

export const dynamic = "force-dynamic"

/** The stored sessions, or `null` under JWT sessions (not stored: no list, but "sign out my other sessions" still works). */
async function storedSessions() {
  try {
    return await listSessions()
  } catch (err) {
    if (err instanceof SessionManagementError && err.code === "DATABASE_SESSIONS_ONLY") return null
    throw err
  }
}

/** The signed-in user's sessions, passkeys and two-step verification (the proxy keeps everyone else out). */
export default async function Account() {
  const session = await auth()
  const [sessions, passkeys, twoStep] = await Promise.all([storedSessions(), listPasskeys(), getTwoFactorStatus()])
  return (
    <main>
      <h1>Account</h1>
      <p id="account-email">{session?.user?.email}</p>
      <section>
        <h2>Sessions</h2>
        {sessions === null ? <p id="sessions-jwt">JWT sessions are not stored, so there is no list: your other sessions can still be signed out.</p> : null}
        <ul id="sessions">
          {(sessions ?? []).map((s) => (
            <li key={s.id} className="session">
              {s.client ?? "Unknown browser"} {s.network ? `from ${s.network}` : ""}, last seen {s.lastSeenAt.toISOString()}
              {s.current ? (
                <strong> (this one)</strong>
              ) : (
                <form action={endSession} style={{ display: "inline" }}>
                  <input type="hidden" name="id" value={s.id} />
                  <button type="submit">End</button>
                </form>
              )}
            </li>
          ))}
        </ul>
        <form action={endOtherSessions}>
          <button id="end-others" type="submit">Sign out my other sessions</button>
        </form>
        <form action={endEverySession}>
          <button id="end-everywhere" type="submit">Sign out everywhere</button>
        </form>
      </section>
      <section>
        <h2>Passkeys</h2>
        <ul id="passkeys">
          {passkeys.map((p) => (
            <li key={p.id} className="passkey">
              {p.name ?? "Passkey"} {p.createdAt ? `added ${p.createdAt.toISOString()}` : ""}
              <form action={removePasskey} style={{ display: "inline" }}>
                <input type="hidden" name="id" value={p.id} />
                <button type="submit">Delete</button>
              </form>
            </li>
          ))}
        </ul>
        <AddPasskey />
      </section>
      <TwoStep enabled={twoStep.enabled} backupCodesLeft={twoStep.backupCodesLeft} />
    </main>
  )
}
