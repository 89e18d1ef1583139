"use client"
// Two-step verification on the account page: start (QR code and secret), confirm with a first code
// (the backup codes shown once), turn off with a current code. Core checks every code.
import { useActionState, useState } from "react"
import { confirmTwoStep, disableTwoStep, startTwoStep, type TwoStepState } from "../actions"

export function TwoStep({ enabled, backupCodesLeft }: { enabled: boolean; backupCodesLeft: number }) {
  const [started, setStarted] = useState<TwoStepState>({})
  const [confirmed, confirm] = useActionState(confirmTwoStep, {})
  const [disabled, disable] = useActionState(disableTwoStep, {})
  const message = disabled.message ?? confirmed.message ?? started.message
  return (
    <section>
      <h2>Two-step verification</h2>
      <p id="two-step-status">{enabled ? `On (${backupCodesLeft} backup codes left)` : "Off"}</p>
      {message ? <p id="two-step-message" role="status">{message}</p> : null}
      {confirmed.backupCodes ? (
        <ul id="backup-codes">
          {confirmed.backupCodes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {!enabled && !started.enrolment ? (
        <button id="two-step-start" type="button" onClick={async () => setStarted(await startTwoStep())}>
          Turn on
        </button>
      ) : null}
      {!enabled && started.enrolment ? (
        <form action={confirm}>
          <div dangerouslySetInnerHTML={{ __html: started.enrolment.qrSvg }} style={{ width: 200 }} />
          <p>
            Key: <code id="two-step-secret">{started.enrolment.secret}</code>
          </p>
          <input id="two-step-code" name="code" aria-label="Code from your app" autoComplete="one-time-code" required />
          <button type="submit">Confirm</button>
        </form>
      ) : null}
      {enabled ? (
        <form action={disable}>
          <input id="two-step-off-code" name="code" aria-label="Current code" autoComplete="one-time-code" required />
          <button type="submit">Turn off</button>
        </form>
      ) : null}
    </section>
  )
}
