import { demoInbox } from "../../lib/demo"

export const dynamic = "force-dynamic"

/** What the demo's SMTP server received: sign-in links (this page is why the demo stays on loopback). */
export default async function Inbox() {
  const messages = await demoInbox()
  return (
    <main>
      <h1>Inbox</h1>
      {messages.length === 0 ? <p>No mail yet.</p> : null}
      <ul>
        {messages.map((m) => (
          <li key={m.id} className="message">
            <p>
              <strong>{m.subject}</strong> to {m.to} at {m.receivedAt}
            </p>
            <pre style={{ whiteSpace: "pre-wrap" }}>{m.text}</pre>
          </li>
        ))}
      </ul>
    </main>
  )
}
